import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { dictionary, expect, javaScriptModes, test } from './fixtures'
import { customerOnRequestForm } from './people'

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
			const page = await customerOnRequestForm(browser, javaScriptEnabled, baseURL, { first: 'Suur', last: 'Saatja' })
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
