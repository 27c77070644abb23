// The play page: clicks on the board become moves (multi-square paths included), forms post actions,
// and while an engine is to move the page asks the server for its move, one request per move.
(() => {
  const panel = document.getElementById("panel");
  const sid = panel.dataset.session;
  let path = [];
  let busy = false;

  const legal = () => JSON.parse(panel.querySelector("#legal").textContent);
  const same = (a, b) => a.length === b.length && a.every((s, i) => s === b[i]);
  const starts = (clicks, prefix) => prefix.every((s, i) => clicks[i] === s);

  async function post(action, data) {
    const response = await fetch(`/play/${sid}/${action}`, { method: "POST", body: new URLSearchParams(data || {}) });
    panel.innerHTML = await response.text();
    path = [];
    return response.ok;
  }

  async function engineLoop() {
    while (panel.querySelector('[data-engine-turn="1"]')) {
      const status = panel.querySelector("#status");
      if (status) status.textContent += " — thinking…";
      if (!(await post("engine"))) break;
    }
  }

  async function act(action, data) {
    if (busy) return;
    busy = true;
    try {
      if (await post(action, data)) await engineLoop();
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

  engineLoop();
})();
