import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, test } from 'vitest'
import { ResponsiveImage } from '~/components/responsive-image'
import { type ImageSource } from '~/uploads/upload-url'

const photo: ImageSource = { id: 'AbC-12_x', width: 1200, height: 800, widths: [160, 320, 640, 1200], version: '0123456789ab', thumbnail: true }

/** The markup's elements and their attributes (named as HTML reads them, in lower case: React writes `srcSet`). */
function render(element: React.ReactElement) {
	const html = renderToStaticMarkup(element)
	const attributes = (tag: string) =>
		[...html.matchAll(new RegExp(`<${tag}\\b([^>]*)>`, 'g'))].map((match) =>
			Object.fromEntries([...match[1]!.matchAll(/([\w-]+)="([^"]*)"/g)].map((pair) => [pair[1]!.toLowerCase(), pair[2]!.replace(/&amp;/g, '&')])),
		)
	return { html, pictures: attributes('picture'), sources: attributes('source'), images: attributes('img') }
}

describe('ResponsiveImage', () => {
	test('a picture with AVIF, then WebP, copies at every width, and an img with its size and text', () => {
		const { pictures, sources, images } = render(<ResponsiveImage image={photo} alt="Kask, photo 1" sizes="(min-width: 640px) 30vw, 50vw" width={260} />)
		expect(pictures).toHaveLength(1)
		expect(sources.map((source) => source.type)).toEqual(['image/avif', 'image/webp'])
		for (const source of sources) {
			const format = source.type!.slice('image/'.length)
			expect(source.srcset).toBe(photo.widths.map((w) => `/uploads/AbC-12_x?w=${w}&f=${format}&v=0123456789ab ${w}w`).join(', '))
			expect(source.sizes).toBe('(min-width: 640px) 30vw, 50vw')
		}
		expect(images).toHaveLength(1)
		// Laid out 260 wide, its height from the image's own 3:2; the fallback the smallest copy that wide.
		expect(images[0]).toMatchObject({ alt: 'Kask, photo 1', width: '260', height: '173', loading: 'lazy', decoding: 'async', src: '/uploads/AbC-12_x?w=320&f=webp&v=0123456789ab' })
		expect(images[0]).not.toHaveProperty('fetchpriority')
	})

	test('below the fold by default; the one image above it eager and fetched first', () => {
		const eager = render(<ResponsiveImage image={photo} alt="" sizes="112px" width={112} loading="eager" />).images[0]!
		expect(eager).toMatchObject({ loading: 'eager' })
		expect(eager).not.toHaveProperty('fetchpriority')
		expect(eager).not.toHaveProperty('decoding')
		const main = render(<ResponsiveImage image={photo} alt="" sizes="112px" width={112} loading="high" />).images[0]!
		expect(main).toMatchObject({ loading: 'eager', fetchpriority: 'high' })
		// Its own size when no layout width is given.
		expect(render(<ResponsiveImage image={photo} alt="" sizes="100vw" />).images[0]).toMatchObject({ width: '1200', height: '800' })
	})

	test('never the image itself when a copy or the thumbnail fits', () => {
		const { html } = render(<ResponsiveImage image={photo} alt="" sizes="100vw" />)
		expect(html).not.toMatch(/\/uploads\/AbC-12_x"/)
		// Wider than every copy: the widest is the fallback.
		expect(render(<ResponsiveImage image={{ ...photo, widths: [160] }} alt="" sizes="100vw" width={900} />).images[0]!.src).toBe('/uploads/AbC-12_x?w=160&f=webp&v=0123456789ab')
	})

	test('an image whose copies are not made yet: its thumbnail where that is wide enough, else the image, in a plain img', () => {
		const legacy = { ...photo, widths: [] }
		const small = render(<ResponsiveImage image={legacy} alt="logo" sizes="72px" width={72} />)
		expect(small.pictures).toHaveLength(0)
		expect(small.images[0]).toMatchObject({ src: '/uploads/AbC-12_x?variant=thumb', width: '72', height: '48', alt: 'logo', loading: 'lazy' })
		expect(render(<ResponsiveImage image={legacy} alt="" sizes="100vw" width={970} />).images[0]!.src).toBe('/uploads/AbC-12_x')
		expect(render(<ResponsiveImage image={{ ...legacy, thumbnail: false }} alt="" sizes="72px" width={72} />).images[0]!.src).toBe('/uploads/AbC-12_x')
	})
})
