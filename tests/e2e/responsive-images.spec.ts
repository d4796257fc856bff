import { type Page, type Response } from '@playwright/test'
import { dictionary, expect, javaScriptModes, open, test } from './fixtures'

/**
 * Issue 18, goal 5 (decision 0093): uploaded images come as AVIF and WebP copies at the size they
 * are shown, with their dimensions, lazily below the fold; the image itself only behind a link.
 */

/** Every uploaded image the page fetched, as the server answered it. */
function uploadsFetched(page: Page) {
	const fetched: Response[] = []
	page.on('response', (response) => {
		if (response.request().resourceType() === 'image' && new URL(response.url()).pathname.startsWith('/uploads/')) fetched.push(response)
	})
	return fetched
}

/** A `<picture>`'s sources and its img's attributes. */
const pictureOf = (img: ReturnType<Page['locator']>) =>
	img.evaluate((element: HTMLImageElement) => {
		const picture = element.parentElement!
		return {
			parent: picture.tagName,
			sources: [...picture.querySelectorAll('source')].map((source) => ({ type: source.type, srcset: source.srcset, sizes: source.sizes })),
			width: element.getAttribute('width'),
			height: element.getAttribute('height'),
			loading: element.getAttribute('loading'),
			decoding: element.getAttribute('decoding'),
			fetchpriority: element.getAttribute('fetchpriority'),
			alt: element.getAttribute('alt'),
		}
	})

for (const javaScriptEnabled of javaScriptModes) {
	test.describe(`uploaded images with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled, viewport: { width: 1366, height: 768 } })

		test('a workshop’s page: its logo first, its photos lazily, each a copy at the size shown, never the photo itself', async ({ page }) => {
			const t = dictionary('en', 'public')
			await open(page, '/workshop-list?q=viljandi&lng=en', javaScriptEnabled)
			await page.getByRole('link', { name: 'Viljandi Autokeskus' }).click()
			await expect(page.getByRole('heading', { level: 1 })).toHaveText('Viljandi Autokeskus')
			const fetched = uploadsFetched(page)
			await page.reload()
			await expect(page.getByRole('heading', { level: 1 })).toHaveText('Viljandi Autokeskus')

			// The logo: above the fold, the one image fetched first.
			const logo = page.getByRole('img', { name: t('workshop.logoAlt').replace('{{name}}', 'Viljandi Autokeskus') })
			const logoMarkup = await pictureOf(logo)
			expect(logoMarkup).toMatchObject({ parent: 'PICTURE', width: '112', height: '112', loading: 'eager', fetchpriority: 'high' })
			expect(logoMarkup.sources.map((source) => source.type)).toEqual(['image/avif', 'image/webp'])
			for (const source of logoMarkup.sources) {
				expect(source.srcset).toMatch(new RegExp(`^/uploads/[\\w-]+\\?w=\\d+&f=${source.type.slice(6)}&v=\\w+ \\d+w(, |$)`))
				expect(source.sizes).toBe('(min-width: 640px) 112px, 80px')
			}
			await expect(page.locator('img[fetchpriority="high"]')).toHaveCount(1)

			// The photos: lazy, with their dimensions, in the gallery's cells; the link opens the photo itself.
			const photos = page.locator('.gallery img')
			await expect(photos).toHaveCount(2)
			for (const photo of await photos.all()) {
				const markup = await pictureOf(photo)
				expect(markup).toMatchObject({ parent: 'PICTURE', loading: 'lazy', decoding: 'async', fetchpriority: null })
				expect(Number(markup.width) / Number(markup.height)).toBeCloseTo(1.5, 1)
				expect(markup.sources.map((source) => source.type)).toEqual(['image/avif', 'image/webp'])
				expect(markup.sources[0]!.srcset.split(', ')).toHaveLength(4)
				const link = await photo.evaluate((img) => img.closest('a')!.getAttribute('href'))
				expect(link).toMatch(/^\/uploads\/[\w-]+$/)
			}

			// The browser takes an AVIF copy, not wider than it needs, for every image it shows.
			await photos.last().scrollIntoViewIfNeeded()
			for (const image of [logo, ...(await photos.all())]) {
				await expect.poll(() => image.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))).toBeGreaterThan(0)
				const current = new URL(await image.evaluate((img: HTMLImageElement) => img.currentSrc))
				expect(current.searchParams.get('f')).toBe('avif')
				expect(Number(current.searchParams.get('w'))).toBeLessThanOrEqual(640)
			}
			await expect.poll(() => fetched.length).toBeGreaterThanOrEqual(3)
			for (const response of fetched) {
				const url = new URL(response.url())
				// A copy, never the uploaded image or its thumbnail.
				expect(url.searchParams.get('f'), url.href).toBe('avif')
				expect(url.searchParams.get('v'), url.href).toMatch(/^\w{12}$/)
				expect(response.status()).toBe(200)
				expect(response.headers()['content-type']).toBe('image/avif')
				expect(response.headers()['cache-control']).toContain('immutable')
			}
		})

		test('the home page’s logos: copies at the card’s size', async ({ page }) => {
			const fetched = uploadsFetched(page)
			await open(page, '/?lng=en', javaScriptEnabled)
			const cardLogos = page.locator('.workshop-card__logo img')
			await expect(cardLogos.first()).toBeVisible()
			for (const logo of await cardLogos.all()) {
				expect(await pictureOf(logo)).toMatchObject({ parent: 'PICTURE', width: '72', height: '72', loading: 'lazy', alt: '' })
			}
			await page.getByRole('contentinfo').scrollIntoViewIfNeeded()
			await expect.poll(() => fetched.length).toBeGreaterThanOrEqual(3)
			for (const response of fetched) {
				const url = new URL(response.url())
				expect(url.searchParams.get('f'), url.href).toBe('avif')
				expect(response.headers()['content-type']).toBe('image/avif')
				// 72 px logos and the 40 px site logo need no more than the smallest copy at this density.
				if (url.searchParams.get('w') !== '970') expect(url.searchParams.get('w')).toBe('160')
			}
		})
	})
}
