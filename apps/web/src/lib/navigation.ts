/**
 * Lets code outside React (the HTTP client) navigate through the router. The router registers itself
 * when it is created; before that, or in a bare page, a full page load does the job.
 */
type Navigate = (url: string) => void;

let registered: Navigate | null = null;

export function registerNavigator(navigate: Navigate | null): void {
  registered = navigate;
}

export function navigateTo(url: string): void {
  if (registered) registered(url);
  else window.location.assign(url);
}
