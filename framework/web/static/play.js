// The play page: clicks on the board become moves (multi-square paths included), forms post actions,
// and while an engine is to move the page asks the server for its move, one request per move.
// Every change is posted with the version of the game this page shows: a stale page gets the board as it is (409).
(() => {
  const panel = document.getElementById("panel");
  const sid = panel.dataset.session;
  const BUSY = { move: "checking your move…", engine: "engine thinking…" };
  let path = [];
  let busy = false;

  const legal = () => JSON.parse(panel.querySelector("#legal").textContent);
  const same = (a, b) => a.length === b.length && a.every((s, i) => s === b[i]);
  const starts = (clicks, prefix) => prefix.every((s, i) => clicks[i] === s);
  const play = () => panel.querySelector(".play");

  // A page that is not a panel (an error page: the game is gone) shows only its message, not a page in the page.
  function show(text) {
    if (!text.trimStart().toLowerCase().startsWith("<!doctype")) {
      panel.innerHTML = text;
      return;
    }
    const page = new DOMParser().parseFromString(text, "text/html");
    const message = panel.querySelector("#message");
    if (message) {
      message.className = "error";
      message.textContent = (page.querySelector("#message") || page.body).textContent;
    }
  }

  function decorate() {
    const last = JSON.parse(play()?.dataset.last || "[]");
    panel.querySelectorAll("[data-square]").forEach((el) => el.classList.toggle("last", last.includes(el.dataset.square)));
    const moves = panel.querySelector("#moves");
    if (moves) moves.scrollTop = moves.scrollHeight;
  }

  async function post(action, data) {
    const version = play()?.dataset.version;
    const body = new URLSearchParams({ ...(data || {}), ...(version === undefined ? {} : { version }) });
    const status = panel.querySelector("#status");
    if (BUSY[action]) {
      panel.classList.add("busy");
      if (status) status.innerHTML = `<span class="spinner"></span> ${BUSY[action]}`;
    }
    try {
      const response = await fetch(`/play/${sid}/${action}`, { method: "POST", body });
      show(await response.text());
      return response.status;
    } catch (error) {
      show(`<!doctype html><p id="message">the server did not answer (${error.message}); reload the page</p>`);
      return 0;
    } finally {
      panel.classList.remove("busy");
      path = [];
      decorate();
    }
  }

  async function engineLoop() {
    while (panel.querySelector('[data-engine-turn="1"]')) {
      const status = await post("engine");
      if (status === 429) await new Promise((done) => setTimeout(done, 1000));   // every search slot is taken
      else if (status !== 200) break;
    }
  }

  async function act(action, data) {
    if (busy) return;
    busy = true;
    try {
      if ((await post(action, data)) === 200) await engineLoop();
    } finally {
      busy = false;
    }
  }

  function highlight() {
    const moves = legal().filter(([, clicks]) => clicks.length > path.length && starts(clicks, path));
    const next = new Set(moves.map(([, clicks]) => clicks[path.length]));
    panel.querySelectorAll("[data-square]").forEach((el) => {
      el.classList.toggle("selected", path.includes(el.dataset.square));
      el.classList.toggle("target", path.length > 0 && next.has(el.dataset.square));
    });
  }

  panel.addEventListener("click", (event) => {
    const square = event.target.closest("[data-square]");
    if (square) {
      if (busy) return;
      const moves = legal();
      path.push(square.dataset.square);
      if (!moves.some(([, clicks]) => starts(clicks, path))) path = [square.dataset.square];
      if (!moves.some(([, clicks]) => starts(clicks, path))) path = [];
      const exact = moves.find(([, clicks]) => same(clicks, path));
      const longer = moves.some(([, clicks]) => clicks.length > path.length && starts(clicks, path));
      if (exact && !longer) act("move", { move: exact[0] });
      else highlight();
      return;
    }
    const button = event.target.closest("button[data-action]");
    if (button) act(button.dataset.action, button.dataset.move ? { move: button.dataset.move } : {});
  });

  panel.addEventListener("submit", (event) => {
    event.preventDefault();
    act("move", { move: event.target.elements.move.value });
  });

  decorate();
  busy = true;
  engineLoop().finally(() => { busy = false; });
})();
