// The replay page: one stored position shown at a time; buttons and the arrow keys step through the game.
(() => {
  const root = document.querySelector(".replay");
  const last = Number(root.dataset.plies);
  let ply = 0;

  function show(n) {
    ply = Math.max(0, Math.min(last, n));
    document.querySelectorAll(".frame").forEach((f) => { f.hidden = Number(f.dataset.ply) !== ply; });
    document.querySelectorAll("#moves li, svg.chart circle").forEach((el) => {
      el.classList.toggle("current", Number(el.dataset.ply) === ply);
    });
    document.getElementById("ply").textContent = `ply ${ply} / ${last}`;
  }

  document.getElementById("first").onclick = () => show(0);
  document.getElementById("prev").onclick = () => show(ply - 1);
  document.getElementById("next").onclick = () => show(ply + 1);
  document.getElementById("last").onclick = () => show(last);
  document.querySelectorAll("#moves li, svg.chart circle").forEach((el) => {
    el.addEventListener("click", () => show(Number(el.dataset.ply)));
  });
  document.addEventListener("keydown", (event) => {
    const step = { ArrowLeft: -1, ArrowRight: 1, Home: -last, End: last }[event.key];
    if (step !== undefined) { show(ply + step); event.preventDefault(); }
  });
  show(0);
})();
