import sanitize from 'sanitize-html'

/**
 * HTML that an administrator typed (content pages, HTML ads) made safe to render with
 * dangerouslySetInnerHTML: ordinary text markup, links and images only. No scripts, no styles,
 * no event handlers, no forms or frames. Links may be http(s), mailto or relative and always get
 * rel="noopener noreferrer"; images must come from https or this site, as the CSP allows.
 * The strict CSP (docs/decisions/0006) is the second line of defence.
 */
const options: sanitize.IOptions = {
	allowedTags: [
		'p', 'br', 'hr', 'h2', 'h3', 'h4', 'h5', 'h6', 'strong', 'b', 'em', 'i', 'u', 's', 'small', 'mark',
		'sub', 'sup', 'abbr', 'cite', 'q', 'code', 'pre', 'kbd', 'blockquote', 'ul', 'ol', 'li', 'dl', 'dt', 'dd',
		'a', 'img', 'figure', 'figcaption', 'span', 'div', 'section', 'article',
		'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td',
	],
	allowedAttributes: {
		a: ['href', 'title', 'target', 'rel', 'hreflang'],
		img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
		abbr: ['title'],
		th: ['scope', 'colspan', 'rowspan'],
		td: ['colspan', 'rowspan'],
		ol: ['start', 'reversed'],
	},
	allowedSchemes: ['http', 'https', 'mailto'],
	allowedSchemesByTag: { img: ['https'] },
	allowedSchemesAppliedToAttributes: ['href', 'src'],
	allowProtocolRelative: false,
	// Whatever is not allowed disappears with its content when it is code, keeps its text otherwise.
	disallowedTagsMode: 'discard',
	nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'template'],
	transformTags: {
		// The page title is the only h1.
		h1: 'h2',
		a: (tagName, attribs) => {
			const next: Record<string, string> = { ...attribs, rel: 'noopener noreferrer' }
			if (next.target && next.target !== '_blank') delete next.target
			return { tagName, attribs: next }
		},
		img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: 'lazy' } }),
	},
	exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
}

export function sanitizeHtml(html: string | null | undefined): string {
	if (!html) return ''
	return sanitize(html, options).trim()
}

/** A link an administrator entered for an ad: http(s) or a path on this site, else nothing. */
export function safeLink(href: string | null | undefined): string | null {
	const value = href?.trim()
	if (!value) return null
	if (value.startsWith('/') && !value.startsWith('//')) return value
	try {
		const url = new URL(value)
		return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null
	} catch {
		return null
	}
}
