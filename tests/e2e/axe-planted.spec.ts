import { expect, test } from '@playwright/test'
import { seriousAxeViolations } from './axe'

// The accessibility checks find what they are there to find: a page with an image without a text
// and grey on white text is refused, and only the part of the page asked about is judged.
test('the axe check finds a missing alt text and low contrast, inside the part asked about only', async ({ page }) => {
	await page.setContent(`<!doctype html><html lang="en"><head><title>Planted</title></head><body>
		<main><h1>Planted</h1><p id="faint" style="color:#bbb;background:#fff">Faint words</p><img id="bare" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main>
		<aside id="clean"><p>Readable words</p></aside></body></html>`)
	const found = await seriousAxeViolations(page)
	expect(found.some((line) => line.startsWith('image-alt: #bare'))).toBe(true)
	expect(found.some((line) => line.startsWith('color-contrast: #faint'))).toBe(true)
	expect(await seriousAxeViolations(page, { include: ['#clean'] })).toEqual([])
})
