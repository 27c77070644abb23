// Results tables: the box above each table keeps the rows containing its text.
document.addEventListener("input", (event) => {
  const box = event.target.closest("input.filter");
  if (!box) return;
  const needle = box.value.toLowerCase();
  document.querySelectorAll(`#${box.dataset.table} tbody tr`).forEach((row) => {
    row.hidden = needle !== "" && !row.textContent.toLowerCase().includes(needle);
  });
});
