import { useEffect, useState } from 'preact/hooks';
import { consoleBase } from '../consoleBase.ts';
import { parseRoute, type Route, routePath } from './routes.ts';

const CHANGE = 'browserdeck:navigate';

/** The route of the page's current address. */
export function currentRoute(): Route {
  const { pathname, search } = window.location;
  const base = consoleBase.consolePath;
  const relative = pathname.startsWith(base) ? pathname.slice(base.length) : '';
  return parseRoute(relative, search);
}

/** The absolute path of a route, for `href`s. */
export function hrefOf(route: Route): string {
  return `${consoleBase.consolePath}${routePath(route)}`;
}

/** Goes to `route` without reloading (history routing); `replace` keeps the back button's entry. */
export function navigate(route: Route, options: { replace?: boolean } = {}): void {
  const href = hrefOf(route);
  if (options.replace) window.history.replaceState(null, '', href);
  else window.history.pushState(null, '', href);
  window.dispatchEvent(new Event(CHANGE));
}

/** The current route, re-rendering on back/forward and on `navigate`. */
export function useRoute(): Route {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const update = () => setRoute(currentRoute());
    window.addEventListener('popstate', update);
    window.addEventListener(CHANGE, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(CHANGE, update);
    };
  }, []);
  return route;
}
