import { inArray } from 'drizzle-orm'
import { consents, contentPages } from '~/db/schema'
import { type Language } from '~/i18n/config'
import { type Tx } from '~/db/db.server'
import { consentKinds, consentPages } from './consents'

/**
 * Records a new account's consent to the terms and the privacy policy, in the registration's
 * transaction: the version of each is its content page's last change in the language the person
 * registered in (or the Estonian page the site falls back to), 'none' if the site has no such page.
 */
export async function recordConsents(tx: Tx, userId: string, language: Language) {
	const pages = await tx
		.select({ slug: contentPages.slug, language: contentPages.language, updatedAt: contentPages.updatedAt })
		.from(contentPages)
		.where(inArray(contentPages.slug, Object.values(consentPages)))
	const versionOf = (slug: string) => {
		const page = pages.find((row) => row.slug === slug && row.language === language) ?? pages.find((row) => row.slug === slug && row.language === 'et')
		return page ? page.updatedAt.toISOString() : 'none'
	}
	await tx.insert(consents).values(consentKinds.map((kind) => ({ userId, kind, version: versionOf(consentPages[kind]), language })))
}
