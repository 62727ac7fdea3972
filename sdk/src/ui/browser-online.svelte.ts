// The browser's own word on being online (navigator.onLine and its events): the page says
// "offline" at once, before the stream notices. Call it while a component initialises; it follows
// the browser until that component is destroyed.
export function browserOnline(): { readonly online: boolean } {
  let online = $state(true);
  $effect(() => {
    const update = () => (online = navigator.onLine);
    update();
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
    };
  });
  return {
    get online() {
      return online;
    },
  };
}
