/** How many leading bytes `sniffContentType` needs. */
export const SNIFF_BYTES = 64;

interface Signature {
  type: string;
  offset: number;
  bytes: number[];
}

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/**
 * Magic numbers of the files people attach most (the signatures of the WHATWG MIME Sniffing
 * standard, section 6, and the formats' own specifications). ZIP-based office documents are told
 * apart from plain ZIP by their declared type or file name, which the caller passes in.
 */
const SIGNATURES: Signature[] = [
  { type: 'application/pdf', offset: 0, bytes: ascii('%PDF-') },
  { type: 'image/png', offset: 0, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', offset: 0, bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/gif', offset: 0, bytes: ascii('GIF87a') },
  { type: 'image/gif', offset: 0, bytes: ascii('GIF89a') },
  { type: 'image/bmp', offset: 0, bytes: ascii('BM') },
  { type: 'image/x-icon', offset: 0, bytes: [0x00, 0x00, 0x01, 0x00] },
  { type: 'image/tiff', offset: 0, bytes: [0x49, 0x49, 0x2a, 0x00] },
  { type: 'image/tiff', offset: 0, bytes: [0x4d, 0x4d, 0x00, 0x2a] },
  { type: 'application/gzip', offset: 0, bytes: [0x1f, 0x8b, 0x08] },
  { type: 'application/x-7z-compressed', offset: 0, bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] },
  { type: 'application/vnd.rar', offset: 0, bytes: ascii('Rar!\x1a\x07') },
  { type: 'application/x-bzip2', offset: 0, bytes: ascii('BZh') },
  { type: 'audio/mpeg', offset: 0, bytes: ascii('ID3') },
  { type: 'audio/ogg', offset: 0, bytes: ascii('OggS') },
  { type: 'audio/flac', offset: 0, bytes: ascii('fLaC') },
  { type: 'application/wasm', offset: 0, bytes: [0x00, 0x61, 0x73, 0x6d] },
  // OLE2 compound file: legacy .doc/.xls/.ppt
  { type: 'application/x-ole-storage', offset: 0, bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1] },
  { type: 'application/zip', offset: 0, bytes: [0x50, 0x4b, 0x03, 0x04] },
  { type: 'application/zip', offset: 0, bytes: [0x50, 0x4b, 0x05, 0x06] },
];

const RIFF = ascii('RIFF');
const RIFF_KINDS: Record<string, string> = {
  WEBP: 'image/webp',
  WAVE: 'audio/wav',
  'AVI ': 'video/x-msvideo',
};

function matches(head: Uint8Array, offset: number, bytes: number[]): boolean {
  if (head.length < offset + bytes.length) return false;
  return bytes.every((byte, index) => head[offset + index] === byte);
}

/** Types whose container is ZIP or OLE2, recognised by the declared type or the file's extension. */
const CONTAINER_TYPES: Record<string, { container: string; type: string }> = {
  docx: {
    container: 'application/zip',
    type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  },
  xlsx: {
    container: 'application/zip',
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  },
  pptx: {
    container: 'application/zip',
    type: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  },
  odt: { container: 'application/zip', type: 'application/vnd.oasis.opendocument.text' },
  ods: { container: 'application/zip', type: 'application/vnd.oasis.opendocument.spreadsheet' },
  epub: { container: 'application/zip', type: 'application/epub+zip' },
  jar: { container: 'application/zip', type: 'application/java-archive' },
  apk: { container: 'application/zip', type: 'application/vnd.android.package-archive' },
  doc: { container: 'application/x-ole-storage', type: 'application/msword' },
  xls: { container: 'application/x-ole-storage', type: 'application/vnd.ms-excel' },
  ppt: { container: 'application/x-ole-storage', type: 'application/vnd.ms-powerpoint' },
  msg: { container: 'application/x-ole-storage', type: 'application/vnd.ms-outlook' },
};

/** A declared type is kept only when it looks like a MIME type (RFC 2045 section 5.1). */
function cleanDeclared(declared: string | undefined): string | null {
  const type = declared?.split(';')[0]?.trim().toLowerCase();
  return type && /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(type) ? type : null;
}

/**
 * The content type of an upload: what its first bytes say for common formats, refined by the
 * extension inside ZIP and OLE2 containers; otherwise the type the browser declared; otherwise
 * `application/octet-stream`. Trusting the bytes over the declaration keeps a renamed executable
 * from travelling as `image/png`, and a PDF the browser did not recognise from travelling as
 * octet-stream.
 */
export function sniffContentType(head: Uint8Array, filename: string, declared?: string): string {
  const extension = filename.toLowerCase().split('.').pop() ?? '';
  const declaredType = cleanDeclared(declared);
  if (matches(head, 0, RIFF) && head.length >= 12) {
    const kind = String.fromCharCode(...head.subarray(8, 12));
    const type = RIFF_KINDS[kind];
    if (type) return type;
  }
  if (matches(head, 4, ascii('ftyp'))) {
    const brand = String.fromCharCode(...head.subarray(8, 12));
    if (/^(heic|heix|mif1|msf1)$/.test(brand)) return 'image/heic';
    if (brand === 'avif') return 'image/avif';
    if (brand.startsWith('M4A')) return 'audio/mp4';
    return 'video/mp4';
  }
  for (const signature of SIGNATURES) {
    if (!matches(head, signature.offset, signature.bytes)) continue;
    const container = Object.values(CONTAINER_TYPES).find(
      (entry) => entry.container === signature.type && entry.type === declaredType,
    );
    if (container) return container.type;
    const byExtension = CONTAINER_TYPES[extension];
    if (byExtension && byExtension.container === signature.type) return byExtension.type;
    return signature.type;
  }
  return declaredType ?? 'application/octet-stream';
}
