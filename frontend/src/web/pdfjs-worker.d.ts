// pdf.js's worker half ships no types of its own; pdf.ts imports it only
// for what importing it does (globalThis.pdfjsWorker).
declare module 'pdfjs-dist/build/pdf.worker.mjs';
