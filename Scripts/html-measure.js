// Measures a CellKit HTML page as the browser laid it out (HTMLBrowserTests). Evaluated in the page
// over the DevTools protocol by Scripts/html-browser.py (the page itself has no script); the value
// of the expression is the report, as JSON.
(function () {
  const px = (v) => parseFloat(v) || 0;
  const failures = [];
  const named = (el) => (el.textContent || el.getAttribute("aria-label") || el.className).slice(0, 80);
  const fail = (what, el) => failures.push(what + (el ? ": " + named(el) : ""));
  const style = (el) => getComputedStyle(el);
  const body = style(document.body);
  const labels = [...document.querySelectorAll("main .l")];

  // The page is standalone: no script of its own.
  if (document.scripts.length > 0) fail("the page has a script");

  // The body's font and every label's: the platform stack, never a monospace one. Every label is
  // bidi-isolated.
  const mono = (family) => /mono|courier|consolas|menlo/i.test(family.split(",")[0]);
  if (mono(body.fontFamily)) fail("the body font is monospace (" + body.fontFamily + ")");
  labels.forEach((el) => {
    if (mono(style(el).fontFamily)) fail("a monospace label", el);
    if (!["isolate", "plaintext"].includes(style(el).unicodeBidi)) fail("a label not bidi-isolated", el);
  });

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
    if (el.classList.contains("iv") && tall) {
      fail("a clipped image (" + el.scrollHeight + " px in " + el.clientHeight + ")", el);
    }
    if (el.classList.contains("l") && (wide || (tall && clamp))) truncated.push(el.textContent);
  });

  // Rows: at least 44 px, options of a listbox; accessories inside the trailing inset and hidden from
  // screen readers; separators inset past a row's image.
  const rows = [...document.querySelectorAll("main li")];
  rows.forEach((row) => {
    const r = row.getBoundingClientRect();
    if (r.height < 43.5) fail("a row " + r.height + " px tall", row);
    if (row.getAttribute("role") !== "option" || row.parentElement.getAttribute("role") !== "listbox") {
      fail("a row outside list semantics", row);
    }
    row.querySelectorAll(":scope > .a, :scope > .av").forEach((a) => {
      const b = a.getBoundingClientRect();
      if (b.right > r.right - 16 + 0.5 || b.left < r.left || b.top < r.top - 0.5 || b.bottom > r.bottom + 0.5) {
        const at = [b.left, b.right, r.left, r.right].map(Math.round);
        fail("an accessory outside the row's trailing inset (" + at + ")", row);
      }
      if (a.tagName.toLowerCase() === "svg" && a.getAttribute("aria-hidden") !== "true") {
        fail("an accessory not hidden from screen readers", row);
      }
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
  const linear = (v) => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  const luminance = ([r, g, b]) => 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
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
  document.querySelectorAll("[role=img]").forEach((el) => {
    if (!el.getAttribute("aria-label")) fail("an image with no text", el);
  });

  const ips = (selector) => [...document.querySelectorAll(selector)].map((el) => el.dataset.ip);
  return JSON.stringify({
    failures, truncated,
    width: innerWidth, scrollWidth: document.documentElement.scrollWidth,
    selected: ips("[aria-selected=true]"), checked: ips("[aria-checked=true]"),
    rows: rows.length,
    fontFamily: body.fontFamily,
    background: body.backgroundColor, color: body.color,
    cell: rows.length ? style(rows[0].parentElement).backgroundColor : "",
    texts: labels.map((el) => el.textContent),
  });
})();
