import { beforeAll, describe, expect, test } from 'vitest'
import { emailPreviews, renderEmailPreview } from '~/domain/messaging/email-previews.server'
import { supportedLanguages } from '~/i18n/config'
import { demoData } from '#tests/support/demo-data'

/** /admin/emails: every e-mail renders in every language, fully translated, with its way out when optional. */
describe('the e-mail previews', () => {
	// The site's name and logo come from the demo site settings; loading them takes a while on a busy machine.
	beforeAll(async () => {
		await demoData()
	}, 120_000)

	test('cover the events, the scheduled e-mails and the account ones', () => {
		const ids = emailPreviews.map((preview) => preview.id)
		expect(ids).toEqual(expect.arrayContaining(['newRequest', 'newOffer', 'offerSelected', 'jobCompleted', 'newReview', 'reviewReply', 'digest', 'chat', 'welcome', 'reset', 'invoice']))
	})

	for (const language of supportedLanguages) {
		test(`render in ${language} with no untranslated key or placeholder`, { timeout: 60_000 }, async () => {
			for (const preview of emailPreviews) {
				const { subject, html, text } = await renderEmailPreview(preview.id, language)
				for (const part of [subject, text]) {
					expect(part, `${preview.id} ${language}`).not.toMatch(/\{\{|\b(email|notifications|unsubscribe)\.[a-z]+\.[a-zA-Z]/)
				}
				expect(html).toContain(`lang="${language}"`)
				expect(text).toContain('Autohub')
				expect(html.includes('/unsubscribe/'), `${preview.id} has an unsubscribe link`).toBe(preview.optional)
			}
		})
	}
})
