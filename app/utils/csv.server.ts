/**
 * CSV as spreadsheets open it (RFC 4180): UTF-8 with a byte-order mark, so that Excel and Numbers
 * read every language's letters; commas between cells, CRLF after each line; a cell holding a
 * comma, a quote, a line break or an edge space is quoted, its quotes doubled. A text cell that
 * starts like a formula (= + - @, a tab or a carriage return) gets a leading apostrophe, so no
 * spreadsheet runs it; number cells are written as they are (a negative amount stays a number).
 */

/** The byte-order mark a CSV file starts with. */
export const BOM = "\uFEFF";

/** A cell: text (made safe from formulas), or a number written as it is (`{ n: "-12.5" }`). */
export type Cell = string | { n: string };

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(c: Cell): string {
  const text = typeof c === "string" ? (FORMULA_START.test(c) ? `'${c}` : c) : c.n;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line of cells, CRLF ended. */
export function csvLine(cells: readonly Cell[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

/**
 * A CSV download: the BOM and the header line at once, then each batch of lines as it comes
 * (the rows are read from the upstream page after page, never held whole). A failure after the
 * first bytes ends the stream with an error, so the browser marks the download failed.
 */
export function csvResponse(
  filename: string,
  header: readonly string[],
  batches: AsyncIterable<string>,
  onError: (err: unknown) => void,
): Response {
  const encoder = new TextEncoder();
  const it = batches[Symbol.asyncIterator]();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(BOM + csvLine(header)));
    },
    async pull(controller) {
      try {
        const next = await it.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (err) {
        onError(err);
        controller.error(err);
      }
    },
    async cancel() {
      await it.return?.();
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
