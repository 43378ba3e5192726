import type { ComponentChildren, LooseAnchorHTMLAttributes } from 'preact';
import { hrefOf, navigate } from '../app/navigation.ts';
import type { Route } from '../app/routes.ts';

/** Props of `Link`: where it goes, and any other attribute of an `<a>`. */
export interface LinkProps extends Omit<LooseAnchorHTMLAttributes<HTMLAnchorElement>, 'href' | 'role'> {
  to: Route;
  children: ComponentChildren;
}

/**
 * A link to a console screen: a real `href` (open in a new tab works), followed without a reload on
 * a plain click.
 */
export function Link({ to, children, onClick, ...rest }: LinkProps) {
  return (
    <a
      {...rest}
      href={hrefOf(to)}
      onClick={(event) => {
        if (typeof onClick === 'function') onClick(event);
        if (event.defaultPrevented || event.button !== 0) return;
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}
