import sharp from 'sharp'
import { dictionary, expect, expectToast, javaScriptModes, test } from './fixtures'
import { customerOnRequestForm } from './people'

/**
 * Nobody picks the same photos twice (issue 16, part 6): photos accepted by a form that failed on
 * another field are held and listed with a box to keep them, and the next sending stores them.
 * With JavaScript, chosen photos are previewed before anything is sent.
 */
const c = dictionary('en', 'customer')
const common = dictionary('en')

const png = (colour: string) => sharp({ create: { width: 320, height: 240, channels: 3, background: colour } }).png().toBuffer()
const keep = (name: string) => common('upload.keep').replace('{{name}}', name)
const fake = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(2048, 7)])

for (const javaScriptEnabled of javaScriptModes) {
	test(`photos accepted by a form that failed are kept for the next sending, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async ({ browser, baseURL }) => {
		test.setTimeout(120_000)
		const page = await customerOnRequestForm(browser, javaScriptEnabled, baseURL, { first: 'Helle', last: 'Hoidja' })
		// Without JavaScript the server finds the missing description; with it the browser would, so
		// there the form fails on a file only the server can judge: a program named like a photo.
		if (javaScriptEnabled) await page.getByLabel(c('request.details')).fill('Engine light is on')
		const photos = page.getByLabel(c('request.images'))
		await photos.setInputFiles([
			{ name: 'front.png', mimeType: 'image/png', buffer: await png('#c0392b') },
			{ name: 'side.png', mimeType: 'image/png', buffer: await png('#2c3e50') },
			...(javaScriptEnabled ? [{ name: 'virus.png', mimeType: 'image/png', buffer: fake }] : []),
		])
		if (javaScriptEnabled) {
			// Previews of what was chosen, before anything is sent.
			const chosen = page.getByRole('list', { name: common('upload.chosen') })
			await expect(chosen.getByRole('listitem')).toHaveCount(3)
			await expect(chosen.locator('img')).toHaveCount(3)
			await expect(chosen).toContainText('front.png')
		}
		await page.getByRole('button', { name: c('request.submit') }).click()

		if (javaScriptEnabled) await expect(page.locator('#request-images-error')).toHaveText(common('upload.wrongType'))
		else await expect(page.getByText(common('validation.required')).first()).toBeVisible()
		// The two good photos are listed as kept, ticked, with their pictures; the rest of the input too.
		const front = page.getByLabel(keep('front.png'))
		const side = page.getByLabel(keep('side.png'))
		await expect(front).toBeChecked()
		await expect(side).toBeChecked()
		await expect(page.getByLabel(keep('virus.png'))).toHaveCount(0)
		await expect(page.getByLabel(c('request.location'))).toHaveValue('Tartu')
		const thumbnails = page.locator('.file-list__held img')
		await expect(thumbnails).toHaveCount(2)
		// Each picture loads (the held file is served to its owner).
		for (const image of await thumbnails.all()) {
			await expect.poll(() => image.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))).toBeGreaterThan(0)
		}

		// The customer lets one go, completes the form, and sends it without choosing the photos again.
		await side.uncheck()
		if (!javaScriptEnabled) await page.getByLabel(c('request.details')).fill('Engine light is on')
		await page.getByRole('button', { name: c('request.submit') }).click()
		await expectToast(page, c('request.created'))
		await expect(page).toHaveURL(/\/request-details\//)
		await expect(page.locator('.photo-strip img')).toHaveCount(1)
		await page.context().close()
	})
}
