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
    const ellipsis = s.textOverflow === "ellipsis" && ["nowrap", "pre"].includes(s.whiteSpace);
    // Cut on purpose: a label clipped at a character (clip), the head-cut half of a middle
    // truncation, the part of a one-line label past its line break (there for screen readers).
    if (el.matches(".cp, .m2, .vh") || el.closest(".vh")) return;
    const clamp = s.webkitLineClamp !== "none" && s.webkitLineClamp !== "";
    if (wide && !ellipsis) fail("a clipped glyph (" + el.scrollWidth + " px in " + el.clientWidth + ")", el);
    if (el.classList.contains("iv") && tall) {
      fail("a clipped image (" + el.scrollHeight + " px in " + el.clientHeight + ")", el);
    }
    const halves = el.classList.contains("md") && [...el.children].some((h) => h.scrollWidth > h.clientWidth + 1);
    if (el.classList.contains("l") && (wide || halves || (tall && clamp))) truncated.push(el.textContent);
  });

  // Rows: at least 44 px, items of a plain list (the page has no script: no listbox, no tab stop that
  // does nothing); accessories inside the trailing inset and hidden from screen readers but for a
  // checkmark, named "checked"; separators inset past a row's image.
  const rows = [...document.querySelectorAll("main .r")];
  rows.forEach((row) => {
    const r = row.getBoundingClientRect();
    if (r.height < 43.5) fail("a row " + r.height + " px tall", row);
    // A plain list; a big section's rows in blocks (plain divs) of a div list of div items.
    const list = row.parentElement;
    const plain = row.tagName === "LI" && !row.hasAttribute("role") && list.tagName === "UL" && !list.hasAttribute("role");
    const blocked = row.getAttribute("role") === "listitem" && list.matches("div.bk:not([role])")
      && list.parentElement.matches("div.ul[role=list]");
    if (!plain && !blocked) fail("a row outside plain list semantics", row);
    if (row.hasAttribute("tabindex")) fail("a row that takes the focus but does nothing", row);
    row.querySelectorAll(":scope > .a, :scope > .av").forEach((a) => {
      const b = a.getBoundingClientRect();
      if (b.right > r.right - 16 + 0.5 || b.left < r.left || b.top < r.top - 0.5 || b.bottom > r.bottom + 0.5) {
        const at = [b.left, b.right, r.left, r.right].map(Math.round);
        fail("an accessory outside the row's trailing inset (" + at + ")", row);
      }
      const check = a.classList.contains("check");
      if (a.tagName.toLowerCase() === "svg" && !check && a.getAttribute("aria-hidden") !== "true") {
        fail("an accessory not hidden from screen readers", row);
      }
      if (check && (a.getAttribute("role") !== "img" || a.getAttribute("aria-label") !== "checked")) {
        fail("a checkmark not named for screen readers", row);
      }
    });
    const im = row.querySelector(":scope > .iv");
    if (im && row.classList.contains("im") && row.nextElementSibling) {
      const inset = px(getComputedStyle(row, "::after").left);
      if (inset < im.getBoundingClientRect().right - r.left) fail("a separator not inset past the image", row);
    }
  });

  // Legible: text (labels, and glyphs standing for images) has a contrast of 4.5:1 or more against
  // what is behind it (WCAG AA); accessories differ from it (1.5: a checkmark tinted like its
  // selected row's background was invisible).
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
  document.querySelectorAll("main .l, main .a, main .iv, main h2, main .f, main .th").forEach((el) => {
    if (!el.textContent.trim() && !el.classList.contains("a")) return;
    const [a, b] = [luminance(rgb(style(el).color)), luminance(behind(el))];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const least = el.classList.contains("a") ? 1.5 : 4.5;
    if (ratio < least) fail("contrast " + ratio.toFixed(2) + " under " + least, el.closest(".r") || el);
  });
  document.querySelectorAll("[role=img]").forEach((el) => {
    if (!el.getAttribute("aria-label")) fail("an image with no text", el);
  });

  // Geometry for the tests' own checks: rows, lists, labels (what of their text shows, on how many
  // lines, in which colour and contrast), images, the table footer, the chevron.
  const box = (el) => {
    const b = el.getBoundingClientRect();
    const r = (v) => Math.round(v * 10) / 10;
    return { left: r(b.left), right: r(b.right), top: r(b.top + scrollY), bottom: r(b.bottom + scrollY),
      width: r(b.width), height: r(b.height) };
  };
  // The characters of `el`'s text that show: laid out inside every box that clips it (up to its row),
  // not in the part kept for screen readers. Their text and the lines they are on.
  const shown = (el) => {
    let clip = el.getBoundingClientRect();
    clip = { left: clip.left, right: clip.right, top: clip.top, bottom: clip.bottom };
    for (let e = el.parentElement; e && e.tagName !== "UL"; e = e.parentElement) {
      if (style(e).overflowX === "visible") continue;
      const b = e.getBoundingClientRect();
      clip = { left: Math.max(clip.left, b.left), right: Math.min(clip.right, b.right),
        top: Math.max(clip.top, b.top), bottom: Math.min(clip.bottom, b.bottom) };
    }
    let text = "";
    const tops = new Set();
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement.closest(".vh")) continue;
      let inner = node.parentElement.getBoundingClientRect();
      for (let e = node.parentElement; e !== el; e = e.parentElement) {
        if (style(e).overflowX === "visible") continue;
        const b = e.getBoundingClientRect();
        inner = { left: Math.max(inner.left, b.left), right: Math.min(inner.right, b.right) };
      }
      const range = document.createRange();
      for (let i = 0; i < node.length && i < 600; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rects = range.getClientRects();
        if (!rects.length) continue;
        const c = rects[0], x = (c.left + c.right) / 2, y = (c.top + c.bottom) / 2;
        if (c.width > 0 && x > Math.max(clip.left, inner.left) && x < Math.min(clip.right, inner.right)
          && y > clip.top && y < clip.bottom) {
          text += node.data[i];
          tops.add(Math.round(c.top));
        }
      }
    }
    return { shown: text, lines: tops.size };
  };
  const contrastOf = (el) => {
    const [a, b] = [luminance(rgb(style(el).color)), luminance(behind(el))];
    return Math.round(((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)) * 100) / 100;
  };
  const rowBoxes = rows.map((row) => Object.assign(box(row), {
    ip: row.dataset.ip, tabindex: row.getAttribute("tabindex"), breakInside: style(row).breakInside,
  }));
  const labelBoxes = labels.map((el) => Object.assign(box(el), shown(el), {
    ip: el.closest(".r") ? el.closest(".r").dataset.ip : "", className: el.className, full: el.textContent,
    color: style(el).color, contrast: contrastOf(el), overflows: el.scrollWidth > el.clientWidth + 1,
    mark: el.querySelector(".l1") ? getComputedStyle(el.querySelector(".l1"), "::after").content : "",
  }));
  const imageBoxes = [...document.querySelectorAll("main .r > .iv")].map((el) =>
    Object.assign(box(el), { ip: el.closest(".r").dataset.ip }));
  // Standard accessories (an inline SVG, or an accessory view): where they sit in their rows.
  const accessoryBoxes = [...document.querySelectorAll("main .r > .a")].map((el) =>
    Object.assign(box(el), { ip: el.closest(".r").dataset.ip, className: el.getAttribute("class") || "",
      transform: style(el).transform }));
  // Each row's separator (its ::after, absolutely placed: left and right resolve to pixels), and
  // where each section header's text sits (a range's box, not the block's).
  const separators = rows.map((row) => {
    const s = getComputedStyle(row, "::after"), r = box(row);
    const left = r.left + parseFloat(s.left), right = r.right - parseFloat(s.right);
    return Object.assign({}, r, { ip: row.dataset.ip, left, right, width: right - left });
  }).filter((b) => Number.isFinite(b.left) && Number.isFinite(b.right));
  const headerBoxes = [...document.querySelectorAll("main h2")].map((h) => {
    const range = document.createRange();
    range.selectNodeContents(h);
    const t = range.getBoundingClientRect(), b = box(h);
    return Object.assign(b, { full: h.textContent, left: t.left, right: t.right, width: t.width });
  });
  // Where each section footer's text sits (a range's box, as the headers'), and the box of every view
  // on a drawn row's grid (labels, images, plain views), with its row.
  const footerBoxes = [...document.querySelectorAll("main section > .f")].map((f) => {
    const range = document.createRange();
    range.selectNodeContents(f);
    const t = range.getBoundingClientRect(), b = box(f);
    return Object.assign(b, { full: f.textContent, left: t.left, right: t.right, width: t.width });
  });
  const gridBoxes = [...document.querySelectorAll("main .r > .g > *")].map((el) =>
    Object.assign(box(el), { ip: el.closest(".r").dataset.ip, className: el.className, full: el.textContent }));
  const lists = [...document.querySelectorAll("main section > :is(ul, .ul)")].map(box);
  const footer = document.querySelector(".tf");
  const more = document.querySelector("#ck-more path");

  const ips = (selector) => [...document.querySelectorAll(selector)].map((el) => el.dataset.ip);
  return JSON.stringify({
    failures, truncated,
    width: innerWidth, scrollWidth: document.documentElement.scrollWidth,
    selected: ips(".r[aria-current=true]"),
    checked: [...document.querySelectorAll(".r > svg.check[role=img]")].map((el) => el.closest(".r").dataset.ip),
    rows: rows.length,
    fontFamily: body.fontFamily,
    background: body.backgroundColor, color: body.color,
    cell: rows.length ? style(rows[0].parentElement).backgroundColor : "",
    texts: labels.map((el) => el.textContent),
    rowBoxes, labelBoxes, imageBoxes, accessoryBoxes, separators, headerBoxes, footerBoxes, gridBoxes, lists,
    tableFooter: footer ? box(footer) : null,
    moreChevron: more ? style(more).stroke : "",
  });
})();
