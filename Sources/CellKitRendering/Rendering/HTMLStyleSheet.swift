// The HTML page's style sheet and accessory symbols: an iOS table in CSS, light and dark.
// Sizes are iOS's points as CSS pixels: 17 px text on 22 px lines, rows at least 44 px with
// 11 px above and below the content, 16 px insets (insetGrouped's cards 20 px in, as iOS's layout
// margins at 390 points), 20 px images, separators inset past the image, 10 px corners.
// Labels keep their spaces (`pre-wrap`; `pre` on one line) and are cut as their line break mode
// says: the ellipsis at the tail, the head (the side the text's direction starts) or the middle
// (two halves, the second cut at its head), clip at a character; a one-line label shows its
// first line and the mark. A cell's own text colour is lightened under the dark palette (`.dk`,
// `--dk` worked out in Swift) to keep 4.5:1. Every colour pair of the palettes has 4.5:1 or more
// (HTMLContrastTests; a selected row has its own grey and tint); rows are not split across printed
// pages.

/// The fixed parts of every HTML page (`HTMLFormat`).
enum HTMLStyleSheet {
    /// The style sheet (`.t`'s maximum width is added per table).
    static let css: StaticString = """
        :root{color-scheme:light dark;--bg:#f2f2f7;--cell:#fff;--fg:#000;--fg2:#6c6c70;--sep:#c6c6c8;\
        --head:#6d6d72;--tint:#0066cc;--blue:#0066cc;--sel:#d1d1d6;--chev:#bcbcc0}
        .sel{--fg2:#4f4f54;--tint:#0055b3}
        @media (prefers-color-scheme:dark){:root{--bg:#000;--cell:#1c1c1e;--fg:#fff;--fg2:#98989f;\
        --sep:#38383a;--head:#8d8d93;--tint:#0a84ff;--blue:#0060c8;--sel:#3a3a3c;--chev:#5a5a5f}\
        .sel{--fg2:#b8b8bf;--tint:#5eafff}}
        *{box-sizing:border-box}
        body{margin:0;padding:20px 0 32px;background:var(--bg);color:var(--fg);font:17px/22px -apple-system,\
        system-ui,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans",sans-serif,\
        "Apple Color Emoji","Noto Color Emoji";-webkit-text-size-adjust:100%}
        .tb{margin:0 auto}
        h1{margin:0 16px 8px;font-size:17px;font-weight:600;text-align:center}
        h1,h2,.th,.f{unicode-bidi:isolate;overflow-wrap:anywhere}
        .th{margin:0 16px 20px;font-size:15px;line-height:20px}
        section{margin:0 0 35px}
        h2{margin:0;padding:0 16px 7px;font-size:13px;line-height:18px;font-weight:400;color:var(--head);\
        text-transform:uppercase}
        .f{margin:7px 16px 0;font-size:13px;line-height:18px;color:var(--head)}
        .tf{margin-top:-20px}
        .plain .tf{margin-top:7px}
        .insetGrouped h2,.insetGrouped .f{padding-inline:16px;margin-inline:20px}
        ul,.ul{list-style:none;margin:0;padding:0;background:var(--cell)}
        .grouped :is(ul,.ul){border-block:1px solid var(--sep)}
        .insetGrouped :is(ul,.ul){margin:0 20px;border-radius:10px;overflow:hidden}
        .bk{content-visibility:auto}
        @media print{.bk{content-visibility:visible}}
        .plain{background:var(--cell)}
        .plain section{margin:0}
        .plain h2{position:sticky;top:0;z-index:1;padding:4px 16px;background:var(--bg);color:var(--fg);font-size:15px;line-height:20px;\
        font-weight:600;text-transform:none}
        .r{position:relative;display:flex;align-items:center;gap:0 16px;padding:11px 16px;\
        padding-inline-start:calc(16px + var(--ind,0px));min-height:44px}
        .fh{height:max(44px,calc(var(--h,1)*22px + 22px));padding-block:0;overflow:clip;align-items:safe center}
        .fh>.g{margin-block:11px}
        .fh>.c{max-height:calc(var(--h,1)*22px);overflow:clip}
        .r:not(:last-child)::after,.bk:not(:last-child)>.r:last-child::after{content:"";position:absolute;\
        inset-inline-start:calc(var(--in,16px) + var(--ind,var(--si,0px)));\
        inset-inline-end:0;bottom:0;border-bottom:1px solid var(--sep)}
        .r.im{--in:57px}
        @media print{.r{break-inside:avoid}h2{break-after:avoid}}
        .sel{background:var(--sel)}
        .blu{background:var(--blue);color:#fff;--fg:#fff;--fg2:#fff;--chev:#fff;--tint:#fff}
        .bgi{isolation:isolate}
        .bg{position:absolute;inset:0;width:100%;height:100%;z-index:-1}
        .ds{position:absolute;width:0;height:0}
        .ii{width:100%;height:100%}
        .c{flex:1;min-width:0;display:flex;flex-direction:column;justify-content:center}
        .c2{display:grid;grid-template-columns:auto auto;justify-content:space-between;align-items:center;gap:0 8px}
        .c2 .d{text-align:right}
        .c2 .d:only-child{grid-column:2}
        .c2 .md.d{justify-content:flex-end}
        .c3{flex-direction:row;justify-content:flex-start;align-items:center;gap:0 8px}
        .c3 .t{flex:none;width:28%;max-width:7em;text-align:right}
        .c3 .t:only-child{flex:1;width:auto;max-width:none;text-align:left}
        .c3 .d{flex:1}
        .l{min-width:0;overflow:hidden;overflow-wrap:anywhere;white-space:pre-wrap;unicode-bidi:isolate}
        .n1{white-space:pre;text-overflow:ellipsis}
        .cp{text-overflow:clip}
        .hd{direction:rtl;text-align:left}
        .md{display:flex}
        .md>span{flex:0 1 auto;min-width:0;overflow:hidden;white-space:pre;text-overflow:ellipsis}
        .md>.m2,.md.rt{direction:rtl;text-overflow:clip}
        .md.rt>.m2{direction:ltr}
        .mk .l1::after{content:"\u{2026}"/""}
        .vh{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:pre}
        @media (prefers-color-scheme:dark){.dk{color:var(--dk)!important}}
        .nn{display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:var(--n)}
        .cl{max-height:calc(var(--n)*1lh)}
        .cw{word-break:break-all}
        .s{font-size:15px;line-height:20px}
        .b{font-weight:600}
        .g{flex:1;min-width:0;align-self:stretch;display:grid;\
        grid-template-columns:repeat(var(--c),minmax(0,1fr));grid-template-rows:repeat(var(--h,1),minmax(22px,auto))}
        .fh .g{grid-template-rows:repeat(var(--h,1),22px)}
        .g>.l{align-self:start}
        .iv{flex:none;width:20px;height:20px;margin:0;margin-inline:4px 1px;display:flex;align-items:center;justify-content:center;\
        font-size:22px;line-height:1;overflow:hidden;container-type:size}
        .iv>span{font-size:min(18px,90cqmin)}
        .r>.iv:first-child{margin-inline-start:calc(4px + var(--si,0px))}
        .g>.iv{width:auto;height:auto;min-width:0;min-height:0;margin:0}
        .x{color:var(--fg2);outline:1px dashed var(--fg2)}
        .av{flex:none;max-width:33%}
        .a{flex:none;width:20px;height:20px;color:var(--tint)}
        .chev{color:var(--chev);width:10px;margin-inline-start:-6px}
        .r[dir=rtl]>.chev,.r[dir=rtl]>.more{transform:scaleX(-1)}
        .more{width:40px}
        .v{min-width:0}

        """

    /// The standard accessories, drawn as UIKit draws them, referenced by each row that shows one.
    static let symbols: StaticString = """
        <svg width="0" height="0" style="position:absolute" aria-hidden="true"><defs>\
        <symbol id="ck-chev" viewBox="0 0 10 20"><path d="M2.5 4.5 8 10l-5.5 5.5" fill="none" \
        stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/></symbol>\
        <symbol id="ck-check" viewBox="0 0 20 20"><path d="M3.5 10.5 8 15 16.5 5" fill="none" \
        stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/></symbol>\
        <symbol id="ck-info" viewBox="0 0 20 20"><circle cx="10" cy="10" r="8.6" fill="none" \
        stroke="currentColor" stroke-width="1.5"/><circle cx="10" cy="6.2" r="1.25" fill="currentColor"/>\
        <path d="M10 9v6" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></symbol>\
        <symbol id="ck-more" viewBox="0 0 40 20"><use href="#ck-info" width="20" height="20"/>\
        <path d="M30.5 4.5 36 10l-5.5 5.5" fill="none" style="stroke:var(--chev)" stroke-width="2.2" \
        stroke-linecap="round" stroke-linejoin="round"/></symbol></defs></svg>

        """
}
