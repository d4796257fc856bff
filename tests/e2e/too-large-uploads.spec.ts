import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { dictionary, expect, javaScriptModes, open, test, uniqueEmail } from './fixtures'
import { addVehicle, person, register } from './people'

/**
 * Issue 31, part 4 (docs/decisions/0115): a 50 MB photo chosen by mistake. The browser sends it
 * whole and shows the form again, not a connection error: the photo field says it is too large,
 * the rest of the input is kept, and nothing was kept of the photo.
 */
const c = dictionary('en', 'customer')
const common = dictionary('en')

for (const javaScriptEnabled of javaScriptModes) {
	test(`a 50 MB photo brings the form back with the error beside the field, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async ({ browser, baseURL }) => {
		test.setTimeout(120_000)
		// A file on disk: the browser reads it from there, as it would a person's.
		const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'autohub-too-large-'))
		const huge = path.join(folder, 'huge.jpg')
		fs.writeFileSync(huge, Buffer.alloc(50 * 1024 * 1024))
		try {
			const page = await person(browser, javaScriptEnabled, baseURL)
			await register(page, 'customer', uniqueEmail('too-large'), { first: 'Suur', last: 'Saatja' })
			const plate = `L${Math.random().toString(36).slice(2, 7).toUpperCase()}`
			await addVehicle(page, plate, javaScriptEnabled)
			await open(page, '/new-service-register', javaScriptEnabled)
			await page.getByRole('group', { name: c('request.services') }).getByLabel('Diagnostics').check()
			await page.getByLabel(c('request.preferredAt')).fill('2030-01-10T09:00')
			await page.getByLabel(c('request.location')).fill('Tartu')
			await page.getByLabel(c('request.details')).fill('Engine light is on')
			await page.getByLabel(c('request.images')).setInputFiles(huge)
			const answer = page.waitForResponse((response) => response.request().method() === 'POST')
			await page.getByRole('button', { name: c('request.submit') }).click()
			expect((await answer).status()).toBe(413)

			await expect(page.locator('#request-images-error')).toHaveText(common('upload.tooLarge'))
			await expect(page.getByLabel(c('request.images'))).toHaveAttribute('aria-invalid', 'true')
			await expect(page.getByLabel(c('request.location'))).toHaveValue('Tartu')
			await expect(page.getByLabel(c('request.details'))).toHaveValue('Engine light is on')
			// Nothing of the photo was kept for the next sending.
			await expect(page.locator('.file-list__held')).toHaveCount(0)
			await expect(page).toHaveURL(/\/new-service-register/)
			await page.context().close()
		} finally {
			fs.rmSync(folder, { recursive: true, force: true })
		}
	})
}
