// The live page: the server sends the standings again (server-sent events) each time a game is stored,
// and the games in progress each time the run rewrites its live file.
(() => {
  const live = document.getElementById("live");
  const playing = document.getElementById("playing");
  const source = new EventSource(live.dataset.events);
  source.addEventListener("standings", (event) => { live.innerHTML = event.data; });
  source.addEventListener("playing", (event) => { playing.innerHTML = event.data; });
})();
