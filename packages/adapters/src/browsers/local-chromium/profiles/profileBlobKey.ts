/** The blob of one save (`version`) of a shared context's profile. */
export function profileBlobKey(context: { projectId: string; id: string }, version: string): string {
  return `contexts/${context.projectId}/${context.id}/${version}`;
}

/** Where every save of a project's shared contexts is: `contexts/<projectId>/`. */
export function projectBlobPrefix(projectId: string): string {
  return `contexts/${projectId}/`;
}
