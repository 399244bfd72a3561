import sanitizeHtml from 'sanitize-html';

/**
 * Makes received HTML safe to show (in the client's sandboxed iframe, as a second line of defence):
 * no scripts, no event handlers, no forms, frames, objects or embeds, no javascript:/vbscript:/data:
 * links. Remote images are kept but disarmed: their address moves to `data-remote-src` so nothing
 * loads (and no tracking pixel fires) until the reader allows it; the client swaps it back. `cid:`
 * images point at the attachment download (`attachment/{id}`), marked `data-cid-src` too.
 */
export function sanitizeMailHtml(html: string, cidUrl: (contentId: string) => string | null): string {
  return sanitizeHtml(html, {
    allowedTags: [
      ...sanitizeHtml.defaults.allowedTags,
      'img',
      'font',
      'center',
      'span',
      'div',
      'table',
      'thead',
      'tbody',
      'tfoot',
      'tr',
      'td',
      'th',
      'colgroup',
      'col',
      'caption',
      'u',
      's',
      'strike',
      'small',
      'big',
      'sub',
      'sup',
      'hr',
      'style',
    ],
    disallowedTagsMode: 'discard',
    allowedAttributes: {
      '*': [
        'style',
        'class',
        'align',
        'valign',
        'width',
        'height',
        'bgcolor',
        'color',
        'dir',
        'lang',
        'title',
        'border',
      ],
      a: ['href', 'name', 'target', 'rel'],
      img: ['src', 'alt', 'data-remote-src', 'data-cid-src', 'data-blocked'],
      font: ['face', 'size', 'color'],
      table: ['cellpadding', 'cellspacing', 'summary'],
      td: ['colspan', 'rowspan', 'nowrap'],
      th: ['colspan', 'rowspan', 'nowrap'],
      col: ['span'],
      colgroup: ['span'],
    },
    // <style> is kept for layout; CSS cannot run script in current browsers, and remote fetches
    // from CSS (url(...)) are cut below.
    allowVulnerableTags: true,
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['http', 'https', 'cid'] },
    allowProtocolRelative: false,
    nonTextTags: [
      'script',
      'textarea',
      'option',
      'noscript',
      'title',
      'iframe',
      'object',
      'embed',
      'form',
      'button',
      'select',
    ],
    transformTags: {
      a: (tagName, attribs) => ({
        tagName,
        attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer nofollow' },
      }),
      img: (tagName, attribs) => {
        const src = (attribs.src ?? '').trim();
        const next: Record<string, string> = { ...attribs };
        delete next.src;
        if (/^cid:/i.test(src)) {
          const url = cidUrl(src.slice(4).replace(/^<|>$/g, ''));
          if (url) {
            next.src = url;
            next['data-cid-src'] = url;
          }
        } else if (/^https?:\/\//i.test(src)) {
          next['data-remote-src'] = src;
          next['data-blocked'] = 'remote';
        }
        return { tagName, attribs: next };
      },
    },
    exclusiveFilter: (frame) => frame.tag === 'style' && /@import|url\s*\(|expression\s*\(/i.test(frame.text),
  }).replace(/url\s*\(\s*['"]?\s*(?:https?:|\/\/)[^)]*\)/gi, 'none');
}
