/** A text field of a submitted form ('' when absent; a file input is never read as text here). */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}
