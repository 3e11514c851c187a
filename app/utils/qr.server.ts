/** QR codes drawn on the server (qrcode): deposit addresses, invite links, authenticator keys. */
import QRCode from "qrcode";

/**
 * The QR code of `text` as an inline SVG with presentation attributes only: no style attribute, so
 * the page's Content-Security-Policy (no inline styles) holds.
 */
export async function qrSvg(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return svg.replace(/\sstyle="[^"]*"/g, "");
}
