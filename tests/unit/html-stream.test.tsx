import { PassThrough } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { renderToPipeableStream } from 'react-dom/server'
import { describe, expect, test } from 'vitest'
import { withoutNulBytes } from '~/utils/html-stream.server'

/** Short pieces of text, as a page is, the Cyrillic ones falling here and there across React's 2 KB buffers. */
const page = (padding: number) => (
	<div>
		{'a'.repeat(padding)}
		{Array.from({ length: 200 }, (_, i) => (
			<i key={i}>Главная страница</i>
		))}
	</div>
)

/** The page's bytes as React streams them (app/entry.server.tsx collects them the same way). */
function streamed(padding: number) {
	return new Promise<Buffer<ArrayBuffer>>((resolve, reject) => {
		const { pipe } = renderToPipeableStream(page(padding), {
			onAllReady() {
				const body = new PassThrough()
				buffer(body).then((bytes) => resolve(Buffer.from(bytes)), reject)
				pipe(body)
			},
			onError: reject,
		})
	})
}

describe('the rendered page', () => {
	test('carries no NUL byte where a multi-byte character meets the end of React’s buffer, and loses nothing', async () => {
		const paddings = [0, 1, 2, 3]
		// React 18.3 pads there with zeros (facebook/react#31134); a newer React may not, and then this says so.
		const raw = await Promise.all(paddings.map((padding) => streamed(padding)))
		expect(raw.some((html) => html.includes(0))).toBe(true)
		for (const [index, padding] of paddings.entries()) {
			const html = withoutNulBytes(raw[index]!).toString('utf8')
			expect(html).not.toContain('\u0000')
			expect(html).toBe(`<div>${'a'.repeat(padding)}${'<i>Главная страница</i>'.repeat(200)}</div>`)
		}
	})
})
