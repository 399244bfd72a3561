/**
 * Reads a file the person picked as text: UTF-8 when it is valid UTF-8 (the decoder drops a BOM),
 * otherwise GB18030, which is what Excel on Chinese Windows writes when saving as CSV.
 */
export async function readFileText(file: Blob): Promise<string> {
  const bytes = await file.arrayBuffer();
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('gb18030').decode(bytes);
  }
}
