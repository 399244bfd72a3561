import DOMPurify, { type Config } from 'dompurify';

/** Where the server points cid: images (GET /api/user/attachment/{id}), before they are inlined as data: URLs. */
const ATTACHMENT_PREFIX = '/api/user/attachment/';
const REMOTE = /^https?:\/\//i;
const SAFE_LINK = /^(?:https?:|mailto:|tel:)/i;

export interface MailSrcdocOptions {
  /** the reader clicked 显示图片: remote images load */
  showRemoteImages: boolean;
  /** inline (cid:) images already fetched: the server's attachment URL → data: URL */
  inlineImages?: ReadonlyMap<string, string>;
}

export interface MailSrcdoc {
  /** the complete document for the sandboxed iframe's srcdoc */
  srcdoc: string;
  /** remote images in the message (blocked unless showRemoteImages) */
  remoteImages: number;
  /** the server's URLs of the inline images the message shows */
  inlineImageUrls: string[];
}

/** The content security policy of the message frame: nothing remote unless the reader allowed images. */
export function mailContentSecurityPolicy(showRemoteImages: boolean): string {
  const images = showRemoteImages ? 'data: https: http:' : 'data:';
  return [
    "default-src 'none'",
    `img-src ${images}`,
    "style-src 'unsafe-inline'",
    'font-src data:',
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/**
 * Second line of defence after the server's sanitiser: whatever arrives, no script, handler, frame,
 * form, plugin or navigation-capable element survives (DOMPurify's HTML profile plus these lists).
 */
const PURIFY_CONFIG: Config & { RETURN_DOM: true } = {
  USE_PROFILES: { html: true },
  FORCE_BODY: true,
  RETURN_DOM: true,
  ADD_ATTR: ['target'],
  FORBID_TAGS: [
    'script',
    'noscript',
    'iframe',
    'frame',
    'frameset',
    'object',
    'embed',
    'applet',
    'portal',
    'link',
    'meta',
    'base',
    'form',
    'input',
    'button',
    'select',
    'option',
    'textarea',
    'video',
    'audio',
    'source',
    'track',
    'picture',
    'template',
  ],
  FORBID_ATTR: ['srcset', 'background', 'poster', 'ping', 'formaction', 'action', 'dynsrc', 'lowsrc'],
};

function prepareImage(image: Element, options: MailSrcdocOptions, inlineUrls: Set<string>): boolean {
  const src = image.getAttribute('src')?.trim() ?? '';
  let remote = image.getAttribute('data-remote-src')?.trim() ?? '';
  const cid = image.getAttribute('data-cid-src')?.trim() || (src.startsWith(ATTACHMENT_PREFIX) ? src : '');
  image.removeAttribute('src');
  // A remote address left in src means the server missed it: treat it like the ones it disarmed.
  if (!remote && !cid && REMOTE.test(src)) remote = src;

  if (cid.startsWith(ATTACHMENT_PREFIX)) {
    inlineUrls.add(cid);
    const data = options.inlineImages?.get(cid);
    if (data?.startsWith('data:image/')) image.setAttribute('src', data);
    return false;
  }
  if (REMOTE.test(remote)) {
    image.setAttribute('data-remote-src', remote);
    if (options.showRemoteImages) image.setAttribute('src', remote);
    else image.setAttribute('data-blocked', 'remote');
    return true;
  }
  if (/^data:image\//i.test(src)) image.setAttribute('src', src);
  return false;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * Builds the sandboxed frame's document for a message's (server-sanitised) HTML: sanitised again,
 * remote images blocked until allowed, inline images as data: URLs, links opening in a new tab, and a
 * strict content security policy that stops any remote load the sanitisers might both have missed.
 */
export function buildMailSrcdoc(html: string, options: MailSrcdocOptions): MailSrcdoc {
  // RETURN_DOM gives the <body> of an inert document: nothing in it loads while it is reworked here.
  const body = DOMPurify.sanitize(html, PURIFY_CONFIG) as HTMLElement;
  const inlineUrls = new Set<string>();
  let remoteImages = 0;
  for (const image of Array.from(body.querySelectorAll('img'))) {
    if (prepareImage(image, options, inlineUrls)) remoteImages += 1;
  }
  for (const link of Array.from(body.querySelectorAll('a'))) {
    const href = link.getAttribute('href')?.trim() ?? '';
    if (href && !SAFE_LINK.test(href)) link.removeAttribute('href');
    link.setAttribute('target', '_blank');
    link.setAttribute('rel', 'noopener noreferrer nofollow');
  }
  const policy = mailContentSecurityPolicy(options.showRemoteImages);
  const srcdoc = [
    '<!doctype html><html><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(policy)}">`,
    '<meta name="referrer" content="no-referrer">',
    '<base target="_blank">',
    '<style>html,body{margin:0;padding:8px;font-family:-apple-system,"PingFang SC","Microsoft YaHei",sans-serif;font-size:14px;line-height:1.6;color:#1f1f1f;word-wrap:break-word;overflow-wrap:anywhere}img{max-width:100%;height:auto}img[data-blocked]{display:inline-block;min-width:16px;min-height:16px;background:#f5f5f5;outline:1px dashed #d9d9d9}</style>',
    '</head><body>',
    body.innerHTML,
    '</body></html>',
  ].join('');
  return { srcdoc, remoteImages, inlineImageUrls: [...inlineUrls] };
}

/**
 * The sandbox of the message frame: links may open a new tab, and nothing else. There is no
 * `allow-scripts`, so nothing in the message ever runs, whatever both sanitisers might have missed.
 * `allow-same-origin` lets the reader (this page's script, from outside) read the height of the
 * frame's document, so that the frame grows to the message instead of scrolling inside a fixed box.
 * It grants the message's document no power of its own: without scripts it cannot use same-origin
 * access (storage, the parent page, the API), forms are stripped and its CSP still loads nothing
 * remote. The two must never be combined with `allow-scripts`, which would let the message remove
 * its own sandbox (mail-frame.test and the browser test check the attribute).
 */
export const MAIL_FRAME_SANDBOX = 'allow-same-origin allow-popups allow-popups-to-escape-sandbox';
