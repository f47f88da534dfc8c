// Measures a CellKit HTML page as the browser laid it out (HTMLBrowserTests). Evaluated in the page
// over the DevTools protocol by Scripts/html-browser.py (the page itself has no script); the value
// of the expression is the report, as JSON.
(function () {
  const px = (v) => parseFloat(v) || 0;
  const failures = [];
  const fail = (what, el) => failures.push(what + (el ? ": " + (el.textContent || el.getAttribute("aria-label") || el.className).slice(0, 80) : ""));
  const style = (el) => getComputedStyle(el);
  const body = style(document.body);
  // The body's font and every label's: the platform stack, never a monospace one.
  const mono = (family) => /mono|courier|consolas|menlo/i.test(family.split(",")[0]) || /^\s*monospace/i.test(family);
  if (mono(body.fontFamily)) fail("the body font is monospace (" + body.fontFamily + ")");
  document.querySelectorAll("main .l").forEach((el) => { if (mono(style(el).fontFamily)) fail("a monospace label", el); });
  // No clipped glyph: whatever hides its overflow either fits or ends with a CSS ellipsis
  // (one line) or a line clamp (several).
  const truncated = [];
  document.querySelectorAll("main *").forEach((el) => {
    const s = style(el);
    if (s.overflowX === "visible" || s.display === "none") return;
    const wide = el.scrollWidth > el.clientWidth + 1, tall = el.scrollHeight > el.clientHeight + 1;
    const ellipsis = s.textOverflow === "ellipsis" && s.whiteSpace === "nowrap";
    const clamp = s.webkitLineClamp !== "none" && s.webkitLineClamp !== "";
    if (wide && !ellipsis) fail("a clipped glyph (" + el.scrollWidth + " px in " + el.clientWidth + ")", el);
    if (el.classList.contains("iv") && tall) fail("a clipped image (" + el.scrollHeight + " px in " + el.clientHeight + ")", el);
    if (el.classList.contains("l") && (wide || (tall && clamp))) truncated.push(el.textContent);
  });
  // Rows: at least 44 px, list items of a listbox; accessories inside the trailing inset.
  const rows = [...document.querySelectorAll("main li")];
  rows.forEach((row) => {
    const r = row.getBoundingClientRect();
    if (r.height < 43.5) fail("a row " + r.height + " px tall", row);
    if (row.getAttribute("role") !== "option" || row.parentElement.getAttribute("role") !== "listbox") fail("a row outside list semantics", row);
    row.querySelectorAll(":scope > .a, :scope > .av").forEach((a) => {
      const b = a.getBoundingClientRect();
      if (b.right > r.right - 16 + 0.5 || b.left < r.left || b.top < r.top - 0.5 || b.bottom > r.bottom + 0.5)
        fail("an accessory outside the row's trailing inset (" + [b.left, b.right, r.left, r.right].map(Math.round) + ")", row);
      if (a.tagName.toLowerCase() === "svg" && a.getAttribute("aria-hidden") !== "true") fail("an accessory not hidden from screen readers", row);
    });
    const im = row.querySelector(":scope > .iv");
    if (im && row.classList.contains("im") && row.nextElementSibling) {
      const inset = px(getComputedStyle(row, "::after").left);
      if (inset < im.getBoundingClientRect().right - r.left) fail("a separator not inset past the image", row);
    }
  });
  // Legible: text and accessories differ from what is behind them (contrast ratio at least 1.5; a
  // checkmark tinted like its selected row's background was invisible).
  const rgb = (c) => (c.match(/[\d.]+/g) || []).map(Number);
  const luminance = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const behind = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(style(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  document.querySelectorAll("main .l, main .a").forEach((el) => {
    if (!el.textContent.trim() && !el.classList.contains("a")) return;
    const [a, b] = [luminance(rgb(style(el).color)), luminance(behind(el))];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 1.5) fail("invisible: contrast " + ratio.toFixed(2), el.closest("li") || el);
  });
  document.querySelectorAll("[role=img]").forEach((el) => { if (!el.getAttribute("aria-label")) fail("an image with no text", el); });
  const root = document.documentElement;
  const report = {
    failures, truncated,
    width: innerWidth, scrollWidth: root.scrollWidth,
    selected: [...document.querySelectorAll("[aria-selected=true]")].map((el) => el.dataset.ip),
    checked: [...document.querySelectorAll("[aria-checked=true]")].map((el) => el.dataset.ip),
    rows: rows.length,
    fontFamily: body.fontFamily,
    background: body.backgroundColor, color: body.color,
    cell: rows.length ? style(rows[0].parentElement).backgroundColor : "",
    texts: [...document.querySelectorAll("main .l")].map((el) => el.textContent),
  };
  return JSON.stringify(report);
})();
