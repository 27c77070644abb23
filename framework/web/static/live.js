// The live page: the server sends the standings again (server-sent events) each time a game is stored.
(() => {
  const live = document.getElementById("live");
  const source = new EventSource(live.dataset.events);
  source.addEventListener("standings", (event) => { live.innerHTML = event.data; });
})();
