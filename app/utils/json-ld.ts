/**
 * schema.org data for search engines (JSON-LD, issue 16): the shapes, the breadcrumb list, and
 * the one safe way to write it into a page. `app/components/json-ld.tsx` renders it.
 */
export type JsonLdThing = { '@type': string; [key: string]: unknown }

/** One step of a page's breadcrumb trail: its name, the portal path to link, and its absolute address. */
export type Crumb = { name: string; path: string; url: string }

/**
 * The data as the text of a `<script type="application/ld+json">`. JSON.stringify alone is not
 * enough: a review reading `</script><script>…` would end the block and run as a script. `<`, `>`
 * and `&` become \u escapes (still the same JSON), and so do U+2028 and U+2029, which old
 * JavaScript parsers read as line ends.
 */
export function jsonLdText(data: JsonLdThing | JsonLdThing[]): string {
	const document = Array.isArray(data) ? { '@context': 'https://schema.org', '@graph': data } : { '@context': 'https://schema.org', ...data }
	return JSON.stringify(document).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** The trail as a schema.org BreadcrumbList. */
export function breadcrumbList(trail: Crumb[]): JsonLdThing {
	return {
		'@type': 'BreadcrumbList',
		itemListElement: trail.map((crumb, index) => ({ '@type': 'ListItem', position: index + 1, name: crumb.name, item: crumb.url })),
	}
}
