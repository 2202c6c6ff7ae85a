// The script of a hextris store report (src/view/report.rs writes the page, its rows and charts).
//
// It only sorts the table: a click on a column's heading sorts the problems by that column
// (again: the other way). Each cell carries the value it sorts by in `data-v`, a number where
// the column is one, so that 10 sorts after 9; the total stays last, in the table's footer.
"use strict";
(function () {
  const table = document.getElementById("problems");
  const body = table.tBodies[0];
  const heads = Array.from(table.tHead.rows[0].cells);
  let sorted = -1, ascending = true;
  function value(row, k) {
    const v = row.cells[k].dataset.v;
    const n = Number(v);
    return v !== "" && !Number.isNaN(n) ? n : v;
  }
  function sortBy(k) {
    ascending = sorted === k ? !ascending : true;
    sorted = k;
    const rows = Array.from(body.rows);
    rows.sort((a, b) => {
      const x = value(a, k), y = value(b, k);
      const c = x < y ? -1 : x > y ? 1 : 0;
      return ascending ? c : -c;
    });
    for (const r of rows) body.appendChild(r);
    heads.forEach((h, i) => {
      h.className = i === k ? (ascending ? "asc" : "desc") : "";
    });
  }
  heads.forEach((h, k) => h.addEventListener("click", () => sortBy(k)));
})();
