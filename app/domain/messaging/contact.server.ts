import { contactMessages } from '~/db/schema'
import { tooManyAttempts } from '~/utils/errors'
import { fallbackLanguage, type Language } from '~/i18n/config'
import { getFixedT } from '~/i18n/i18n.server'
import { transaction } from '~/db/db.server'
import { hitRateLimit, rateLimitRules } from '~/utils/rate-limit.server'
import { sendEmail } from './emails.server'
import { letter } from './email-templates.server'
import { formatDateTime } from '~/utils/format'
import { getSiteData } from '~/domain/site/site.server'
import { type ContactInput } from './contact'

/**
 * Stores a contact message and queues an e-mail about it to the site e-mail (site settings), in
 * one transaction: either both happen or neither. The e-mail is written in the portal's default
 * language (Estonian), for the team that answers it; it says which language the sender used.
 * Over the per-address limit it is refused (429) and nothing is stored.
 */
export async function saveContactMessage(input: ContactInput & { language: Language }, sender: { ip: string }, now = new Date()) {
	// The portal's form and the JSON call share one limit per address.
	const limit = await hitRateLimit(`contact:${sender.ip}`, rateLimitRules.contactPerIp)
	if (!limit.allowed) throw tooManyAttempts(limit.retryAfterSeconds)
	const site = await getSiteData()
	const t = getFixedT(fallbackLanguage, 'public')
	return transaction(async (tx) => {
		const [row] = await tx
			.insert(contactMessages)
			.values({ name: input.name, email: input.email, message: input.message, language: input.language, createdAt: now })
			.returning({ id: contactMessages.id })
		if (site.siteEmail) {
			const subject = t('contact.mail.subject', { name: input.name, site: site.appname })
			const text = t('contact.mail.text', {
				name: input.name,
				email: input.email,
				language: t(`common:language.${input.language}`),
				date: formatDateTime(now, fallbackLanguage),
				message: input.message,
			})
			await sendEmail(tx, { to: site.siteEmail, language: fallbackLanguage, subject, content: letter(subject, text) })
		}
		return row!.id
	})
}
