// Reading a PDF in the engine's worker with pdf.js: the JavaScript half of
// backend/ingest/pdf's Extract in the web edition (extract_js.go calls
// globalThis.loomExtractPDF, which worker.ts points at extractPDFJSON). The
// answer is the JSON of the package's Raw: every page's text runs with their
// boxes, sizes and fonts, the outline and the document's title and author;
// the layout (columns, headings, paragraphs) is Go's, the same for every
// edition.
//
// pdf.js is imported on the first PDF only (its own chunks, so the page's
// first load does not grow) and runs inside this worker, without a worker
// of its own: its worker half is imported here too and pdf.js talks to it
// in the same thread (globalThis.pdfjsWorker).
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist';
import type { TextContent, TextItem, TextMarkedContent } from 'pdfjs-dist/types/src/display/api';
import type { PageViewport } from 'pdfjs-dist/types/src/display/display_utils';

/** backend/ingest/pdf.Raw. */
export interface Raw {
  pages: Page[];
  outline: OutlineItem[];
  title: string;
  author: string;
}

/** backend/ingest/pdf.Page: sizes in PDF points. */
export interface Page {
  number: number;
  width: number;
  height: number;
  runs: Run[];
}

/** backend/ingest/pdf.Run: a box in PDF points, top-left origin, y growing down. */
export interface Run {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  size: number;
  bold: boolean;
  italic: boolean;
  font: string;
}

/** backend/ingest/pdf.OutlineItem: level and page from 1, y in points from the top (-1: unknown). */
export interface OutlineItem {
  title: string;
  level: number;
  page: number;
  y: number;
}

/** What is known of a font pdf.js loaded: its PDF name and pdf.js's own reading of it. */
export interface FontFacts {
  name: string;
  bold?: boolean;
  black?: boolean;
  italic?: boolean;
}

/** A 2D affine matrix as PDF and pdf.js write it: [a, b, c, d, e, f]. */
export type Matrix = readonly number[];

/** The product m1 × m2 (m2 first, then m1), as pdf.js's Util.transform. */
export function multiply(m1: Matrix, m2: Matrix): number[] {
  return [
    m1[0] * m2[0] + m1[2] * m2[1],
    m1[1] * m2[0] + m1[3] * m2[1],
    m1[0] * m2[2] + m1[2] * m2[3],
    m1[1] * m2[2] + m1[3] * m2[3],
    m1[0] * m2[4] + m1[2] * m2[5] + m1[4],
    m1[1] * m2[4] + m1[3] * m2[5] + m1[5],
  ];
}

/** Points to 1/100: enough for layout, and the JSON stays short. */
const round = (v: number) => Math.round(v * 100) / 100 || 0;

/** "ABCDEF+CMBX12" → "CMBX12": the subset tag is random per file. */
export function baseFontName(name: string): string {
  return name.replace(/^[A-Z]{6}\+/, '');
}

// TeX's own families write weight and shape in a short code rather than a
// word: Computer Modern (CMBX12 bold extended, CMTI10 text italic, CMSL10
// slanted, CMMI10 math italic), EC/cm-super (SFBX1000, SFTI1000, SFSL…),
// Linux Libertine (LinLibertineTB bold, TZ semibold, TI italic). Type
// foundries write words (Times-Bold, NimbusRomNo9L-Medi, MinionPro-It).
const boldWord = /bold|black|heavy|semibold|demi|extrab|ultrab|[-,]medi(?:$|ital$)|(?:^|[-,])(?:sb|bd)(?:$|it)/i;
const boldTeX = /^(cmbx|cmb\d|cmssbx|cmbsy|cmbr|eufb|eusb|sfbx|sfbi|sfsx|sfxc|sfrb|lmroman\d*-dunh)/i;
const italicWord = /italic|oblique|ital|slant|kursiv|(?:^|[-,])(?:bold|semibold|medium|regular|light|black)?it$/i;
const italicTeX = /^(cmti|cmsl|cmmi|cmbxti|cmbxsl|cmitt|cmssi|cmsltt|cmfi|cmu\w*i$|sfti|sfsl|sfbi|sfit|sfsi|sfso|eufm)/i;
const libertine = /^Lin(?:Libertine|Biolinum)([A-Z]*)$/;

/** Bold and italic as a font's PDF name tells them (pdf.js's own flags catch only the words). */
export function fontStyle(name: string): { bold: boolean; italic: boolean } {
  const base = baseFontName(name);
  const lib = libertine.exec(base);
  if (lib) {
    const code = lib[1].replace(/^[TOK]/, '');
    return { bold: /[BZ]/.test(code), italic: /[IO]/.test(code) };
  }
  return {
    bold: boldWord.test(base) || boldTeX.test(base),
    italic: italicWord.test(base) || italicTeX.test(base),
  };
}

function isTextItem(item: TextItem | TextMarkedContent): item is TextItem {
  return typeof (item as TextItem).str === 'string';
}

/**
 * The runs of a page's text content. viewportTransform is the page's
 * viewport at scale 1 (PDF points, top-left origin, the page's rotation and
 * crop applied); fonts names the fonts pdf.js loaded, where known.
 *
 * A run's box is the glyphs' advance along the baseline and one font size
 * above it: for upright text x0 = e, x1 = e + width, y1 = the baseline,
 * y0 = y1 − size (e, f the item's origin in the viewport); text at an angle
 * (arXiv's stamp up the margin) gets the box around its rotated rectangle.
 * Blank items (the spaces and line ends pdf.js adds) are left out.
 */
export function runsFromText(content: Pick<TextContent, 'items' | 'styles'>, viewportTransform: Matrix, fonts: (loadedName: string) => FontFacts | undefined = () => undefined): Run[] {
  const runs: Run[] = [];
  for (const item of content.items) {
    if (!isTextItem(item) || item.str.trim() === '') continue;
    const m = multiply(viewportTransform, item.transform);
    const size = Math.hypot(m[2], m[3]);
    const along = Math.hypot(m[0], m[1]) || 1;
    // Vertical writing advances down the line (pdf.js gives its advance as height).
    const advance = content.styles[item.fontName]?.vertical ? item.height : item.width;
    const dx = (m[0] / along) * advance;
    const dy = (m[1] / along) * advance;
    const xs = [m[4], m[4] + dx, m[4] + m[2], m[4] + dx + m[2]];
    const ys = [m[5], m[5] + dy, m[5] + m[3], m[5] + dy + m[3]];
    const font = fonts(item.fontName);
    const name = font?.name ? baseFontName(font.name) : '';
    const style = fontStyle(name);
    runs.push({
      text: item.str,
      x0: round(Math.min(...xs)),
      y0: round(Math.min(...ys)),
      x1: round(Math.max(...xs)),
      y1: round(Math.max(...ys)),
      size: round(size),
      bold: style.bold || !!font?.bold || !!font?.black,
      italic: style.italic || !!font?.italic,
      font: name,
    });
  }
  return runs;
}

/** A destination's page (0-based index) and its top in PDF user space (null when it names none). */
interface Target {
  pageIndex: number | null;
  top: number | null;
  left: number;
}

/**
 * Where an explicit destination points: [page, {name: 'XYZ'}, left, top,
 * zoom], [page, {name: 'FitH'}, top], [page, {name: 'FitR'}, l, b, r, t]…;
 * page is a reference (or, in some files, a page number from 0).
 */
async function target(doc: PDFDocumentProxy, dest: unknown): Promise<Target> {
  let explicit = dest;
  if (typeof dest === 'string') explicit = await doc.getDestination(dest);
  if (!Array.isArray(explicit) || explicit.length === 0) return { pageIndex: null, top: null, left: 0 };
  const [ref, kind, ...args] = explicit as [unknown, { name?: string } | undefined, ...(number | null)[]];
  let pageIndex: number | null = null;
  if (typeof ref === 'number') pageIndex = ref;
  else if (ref && typeof ref === 'object') pageIndex = await doc.getPageIndex(ref as Parameters<PDFDocumentProxy['getPageIndex']>[0]).catch(() => null);
  const num = (v: number | null | undefined) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  let top: number | null = null;
  let left = 0;
  switch (kind?.name) {
    case 'XYZ':
      left = num(args[0]) ?? 0;
      top = num(args[1]);
      break;
    case 'FitH':
    case 'FitBH':
      top = num(args[0]);
      break;
    case 'FitR':
      left = num(args[0]) ?? 0;
      top = num(args[3]);
      break;
  }
  return { pageIndex, top, left };
}

/** The outline's entries, depth first; an entry that points to no page (a link to the web) is left out, its children kept. */
async function outline(doc: PDFDocumentProxy, viewports: PageViewport[]): Promise<OutlineItem[]> {
  const out: OutlineItem[] = [];
  type Node = { title: string; dest: unknown; items: Node[] };
  const walk = async (nodes: Node[], level: number) => {
    for (const node of nodes) {
      const t = await target(doc, node.dest).catch(() => ({ pageIndex: null, top: null, left: 0 }) as Target);
      if (t.pageIndex !== null && t.pageIndex >= 0 && t.pageIndex < viewports.length) {
        const vp = viewports[t.pageIndex];
        const y = t.top === null ? -1 : round(vp.convertToViewportPoint(t.left, t.top)[1]);
        out.push({ title: node.title.trim(), level, page: t.pageIndex + 1, y: y < 0 ? -1 : y });
      }
      await walk(node.items ?? [], level + 1);
    }
  };
  await walk(((await doc.getOutline()) ?? []) as Node[], 1);
  return out;
}

/** A text of the document's information dictionary or XMP metadata (a list, such as dc:creator, joined). */
function text(v: unknown): string {
  if (typeof v === 'string') return v.trim();
  if (Array.isArray(v)) return v.filter((x) => typeof x === 'string' && x.trim()).map((x: string) => x.trim()).join(', ');
  return '';
}

/** pdf.js as this module uses it. */
type PDFJS = typeof import('pdfjs-dist');

let loading: Promise<PDFJS> | null = null;

/**
 * pdf.js, imported once. Its worker half goes first and stays in this
 * thread: importing it defines globalThis.pdfjsWorker, which makes pdf.js
 * talk to it in place instead of starting a worker. Inside a worker that
 * module would also take over this worker's messages (it does when it
 * finds no window), so a window is pretended while it loads.
 */
function loadPDFJS(): Promise<PDFJS> {
  loading ??= (async () => {
    const g = globalThis as { window?: unknown };
    const hadWindow = 'window' in g;
    if (!hadWindow) g.window = globalThis;
    try {
      await import('pdfjs-dist/build/pdf.worker.mjs');
    } finally {
      if (!hadWindow) delete g.window;
    }
    return import('pdfjs-dist');
  })().catch((e) => {
    loading = null;
    throw e;
  });
  return loading;
}

/** Where pdf.js finds its character maps (make web copies them beside the site); unset, CJK text in a font without its own map is lost. */
let cMapBase: string | undefined;

/** Tells pdf.js where the site is, so it finds the character maps make web ships in pdfjs/cmaps/. */
export function setSiteBase(base: string) {
  cMapBase = new URL('pdfjs/cmaps/', base).href;
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The fonts pdf.js loaded for a page's drawing: the operator list names them as its dependencies. */
async function pageFonts(pdfjs: PDFJS, page: PDFPageProxy, wanted: string[]): Promise<Map<string, FontFacts>> {
  const ops = await page.getOperatorList({ annotationMode: pdfjs.AnnotationMode.DISABLE });
  const deps = new Set<string>();
  ops.fnArray.forEach((fn, i) => {
    if (fn === pdfjs.OPS.dependency) deps.add(String(ops.argsArray[i][0]));
  });
  const fonts = new Map<string, FontFacts>();
  await Promise.all(
    wanted
      .filter((id) => deps.has(id))
      .map(
        (id) =>
          // Resolved by the time the operator list is drawable (pdf.js's own
          // drawing waits the same way); an error string when the font failed.
          new Promise<void>((resolve) =>
            page.commonObjs.get(id, (font: unknown) => {
              if (font && typeof font === 'object' && typeof (font as FontFacts).name === 'string') fonts.set(id, font as FontFacts);
              resolve();
            }),
          ),
      ),
  );
  return fonts;
}

/**
 * Reads a PDF into a Raw. Rejects with an Error whose message is the
 * problem, written to follow the file's name: "is encrypted: …", "has no
 * text layer …", "is not a PDF or is damaged: …".
 */
export async function extractPDF(data: Uint8Array): Promise<Raw> {
  const pdfjs = await loadPDFJS().catch((e) => {
    throw new Error(`could not be read: Loom’s PDF reader (pdf.js) did not load (${describe(e)}); reload the page and add it again`);
  });
  const task = pdfjs.getDocument({
    data,
    // Nothing is drawn: no fonts for the page, no images decoded, no eval.
    disableFontFace: true,
    useSystemFonts: false,
    isEvalSupported: false,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    maxImageSize: 0,
    useWorkerFetch: false,
    stopAtErrors: false,
    cMapUrl: cMapBase,
    cMapPacked: true,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
  });
  let doc: PDFDocumentProxy;
  try {
    doc = await task.promise;
  } catch (e) {
    await task.destroy().catch(() => {});
    if ((e as Error)?.name === 'PasswordException') {
      throw new Error('is encrypted: Loom cannot read password-protected PDFs (save a copy without the password and add that)');
    }
    throw new Error(`is not a PDF or is damaged: ${describe(e)}`);
  }
  try {
    const pages: Page[] = [];
    const viewports: PageViewport[] = [];
    let runs = 0;
    for (let n = 1; n <= doc.numPages; n++) {
      try {
        const page = await doc.getPage(n);
        const viewport = page.getViewport({ scale: 1 });
        const content = await page.getTextContent();
        const loaded = Object.keys(content.styles);
        // Without its fonts a page still has its text, only not which is bold.
        const fonts = loaded.length
          ? await pageFonts(pdfjs, page, loaded).catch((e) => {
              console.warn(`loom: the fonts of a PDF's page ${n} could not be read, so its bold and italic are unknown:`, describe(e));
              return new Map<string, FontFacts>();
            })
          : new Map<string, FontFacts>();
        const pageRuns = runsFromText(content, viewport.transform, (id) => fonts.get(id));
        runs += pageRuns.length;
        pages.push({ number: n, width: round(viewport.width), height: round(viewport.height), runs: pageRuns });
        viewports.push(viewport);
        page.cleanup();
      } catch (e) {
        throw new Error(`is not a PDF or is damaged: page ${n} of ${doc.numPages} could not be read (${describe(e)})`);
      }
    }
    if (runs === 0) {
      throw new Error(
        `has no text layer: its ${doc.numPages === 1 ? 'page is' : `${doc.numPages} pages are`} images only (a scan?), and Loom does not read text in images; run it through OCR (ocrmypdf, for one) and add the result`,
      );
    }
    // A broken outline or information dictionary costs the headings' hints
    // or the title, not the text: the layout finds those in the text.
    const items = await outline(doc, viewports).catch((e) => {
      console.warn('loom: the PDF’s outline could not be read; its headings come from the text alone:', describe(e));
      return [] as OutlineItem[];
    });
    const meta = await doc.getMetadata().catch((e) => {
      console.warn('loom: the PDF’s information (title, author) could not be read:', describe(e));
      return null;
    });
    const info = (meta?.info ?? {}) as Record<string, unknown>;
    return {
      pages,
      outline: items,
      title: text(info.Title) || text(meta?.metadata?.get('dc:title')),
      author: text(info.Author) || text(meta?.metadata?.get('dc:creator')),
    };
  } finally {
    await doc.destroy().catch(() => {});
  }
}

/** extractPDF's Raw as JSON: what loomExtractPDF answers the engine. */
export async function extractPDFJSON(data: Uint8Array): Promise<string> {
  return JSON.stringify(await extractPDF(data));
}
