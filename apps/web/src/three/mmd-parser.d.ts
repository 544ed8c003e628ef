/** mmd-parser ships no types: the two calls the MMD page uses (documents typed in MmdViewer.ts). */
declare module 'mmd-parser' {
  export class Parser {
    parsePmx(buffer: ArrayBuffer, leftToRight?: boolean): unknown;
    parseVmd(buffer: ArrayBuffer, leftToRight?: boolean): unknown;
  }
}
