import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, test } from 'vitest'
import { JsonLd } from '~/components/json-ld'
import { NonceProvider } from '~/utils/nonce-provider'
import { breadcrumbList, jsonLdText } from '~/utils/json-ld'

/** Search data is written into the page as a script's text: what people write must stay data (issue 16). */
const hostile = '</script><script>alert(1)</script> <!-- & \u2028\u2029 -->'
const review = { '@type': 'Review', reviewBody: hostile, author: { '@type': 'Person', name: '<b>Mari</b> T.' } }

describe('JSON-LD', () => {
	test('escapes what could end the script or the line, and still parses to the same data', () => {
		const text = jsonLdText(review)
		expect(text).not.toMatch(/[<>&\u2028\u2029]/)
		expect(text).toContain('\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e')
		expect(JSON.parse(text)).toEqual({ '@context': 'https://schema.org', ...review })
	})

	test('a review that closes the script tag stays inside the one data block', () => {
		const html = renderToStaticMarkup(
			<NonceProvider value="n0nce">
				<JsonLd data={[{ '@type': 'AutoRepair', name: 'Kask', review: [review] }]} />
			</NonceProvider>,
		)
		// One script, which the review does not end: its whole text is the data.
		expect(html.match(/<script/g)).toHaveLength(1)
		expect(html.match(/<\/script>/g)).toHaveLength(1)
		const match = /^<script type="application\/ld\+json" nonce="n0nce">(.*)<\/script>$/s.exec(html)
		expect(match).not.toBeNull()
		const data = JSON.parse(match![1]!) as { '@context': string; '@graph': Array<{ review: Array<{ reviewBody: string }> }> }
		expect(data['@context']).toBe('https://schema.org')
		expect(data['@graph'][0]!.review[0]!.reviewBody).toBe(hostile)
	})

	test('a breadcrumb trail becomes a BreadcrumbList in order', () => {
		expect(
			breadcrumbList([
				{ name: 'Home', path: '/', url: 'https://autohub.example/' },
				{ name: 'Workshops', path: '/workshop-list', url: 'https://autohub.example/workshop-list' },
			]),
		).toEqual({
			'@type': 'BreadcrumbList',
			itemListElement: [
				{ '@type': 'ListItem', position: 1, name: 'Home', item: 'https://autohub.example/' },
				{ '@type': 'ListItem', position: 2, name: 'Workshops', item: 'https://autohub.example/workshop-list' },
			],
		})
	})
})
