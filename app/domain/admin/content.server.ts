import { and, asc, eq } from 'drizzle-orm'
import { DEFAULT_TYRE_DAYS, dayOfYearInput } from '~/domain/service-flow/reminders'
import { contentPages, siteSettings } from '~/db/schema'
import { db } from '~/db/db.server'
import { savePreparedUpload, type FormUpload } from '~/uploads/storage.server'
import { uploadUrl } from '~/uploads/upload-url'
import { type contentLanguages, type contentSlugs, type SiteSettingsInput } from './admin'
import { audited } from './audit.server'
import { type SiteData } from '~/domain/site/site'
import { forgetSiteData } from '~/domain/site/site.server'

/**
 * Site content in the administration area: the site settings (spec §3 site data and the invoice
 * seller) with the logo and favicon, and the three content pages per language. The HTML is kept as
 * typed and sanitized on every read (docs/decisions/0023). Each save is audited and drops the
 * public site's caches, so visitors see it at once.
 */

type Slug = (typeof contentSlugs)[number]
type ContentLanguage = (typeof contentLanguages)[number]

export async function listContentPages() {
	return db
		.select({ slug: contentPages.slug, language: contentPages.language, title: contentPages.title, updatedAt: contentPages.updatedAt })
		.from(contentPages)
		.orderBy(asc(contentPages.slug), asc(contentPages.language))
}

export async function getContentPageForEdit(slug: Slug, language: ContentLanguage) {
	const [row] = await db
		.select({ title: contentPages.title, bodyHtml: contentPages.bodyHtml })
		.from(contentPages)
		.where(and(eq(contentPages.slug, slug), eq(contentPages.language, language)))
	return row ?? null
}

/** Saves one language of a content page (creating it when that language had none). */
export async function saveContentPage(actorId: string, slug: Slug, language: ContentLanguage, input: { title: string; bodyHtml: string }) {
	await audited(actorId, { action: 'content.page', entityType: 'content_page', entityId: `${slug}/${language}` }, async (tx) => {
		const [current] = await tx
			.select({ title: contentPages.title, bodyHtml: contentPages.bodyHtml })
			.from(contentPages)
			.where(and(eq(contentPages.slug, slug), eq(contentPages.language, language)))
			.for('update')
		await tx
			.insert(contentPages)
			.values({ slug, language, ...input })
			.onConflictDoUpdate({ target: [contentPages.slug, contentPages.language], set: { ...input, updatedAt: new Date() } })
		return { before: current ?? null, after: { ...input }, result: undefined }
	})
}

/** The settings form: the site data every page shows, plus the seller's data for invoices. */
export type SiteSettingsForm = Omit<SiteData, 'logoImage'> & {
	companyName: string
	companyRegistryCode: string
	vatNumber: string
	vatRate: string
	tyreAutumnDay: string
	tyreSpringDay: string
	bookingFreeChangeHours: number
	bookingFirstReminderHours: number
	bookingSecondReminderHours: number
	bookingTypicalMinutes: number
}

export async function getSiteSettingsForEdit(): Promise<SiteSettingsForm> {
	const [row] = await db.select().from(siteSettings).where(eq(siteSettings.id, true))
	return {
		appname: row?.appname ?? 'Autohub',
		siteAddress: row?.siteAddress ?? '',
		siteAddressEstonian: row?.siteAddressEstonian ?? '',
		siteAddressRussian: row?.siteAddressRussian ?? '',
		siteEmail: row?.siteEmail ?? '',
		countryCode: row?.countryCode ?? '+372',
		sitePhoneNumber: row?.sitePhoneNumber ?? '',
		facebookLink: row?.facebookLink ?? '',
		twitterLink: row?.twitterLink ?? '',
		instagramLink: row?.instagramLink ?? '',
		linkedinLink: row?.linkedinLink ?? '',
		companyName: row?.companyName ?? '',
		companyRegistryCode: row?.companyRegistryCode ?? '',
		vatNumber: row?.vatNumber ?? '',
		vatRate: String((row?.vatRateBasisPoints ?? 2400) / 100),
		tyreAutumnDay: dayOfYearInput(row?.tyreAutumnDay ?? DEFAULT_TYRE_DAYS.autumn),
		tyreSpringDay: dayOfYearInput(row?.tyreSpringDay ?? DEFAULT_TYRE_DAYS.spring),
		bookingFreeChangeHours: row?.bookingFreeChangeHours ?? 24,
		bookingFirstReminderHours: row?.bookingFirstReminderHours ?? 24,
		bookingSecondReminderHours: row?.bookingSecondReminderHours ?? 2,
		bookingTypicalMinutes: row?.bookingTypicalMinutes ?? 60,
		// Shown as small previews: the thumbnail fits.
		logo: row?.logoUploadId ? uploadUrl(row.logoUploadId, 'thumb') : null,
		favicon: row?.faviconUploadId ? uploadUrl(row.faviconUploadId, 'thumb') : null,
	}
}

/**
 * Saves the site settings; a new logo or favicon (already checked by content) is stored in the
 * same transaction, and the old file stays for the audit trail.
 */
export async function saveSiteSettings(
	actorId: string,
	input: SiteSettingsInput,
	files: { logo?: FormUpload; favicon?: FormUpload; removeLogo?: boolean; removeFavicon?: boolean },
) {
	await audited(actorId, { action: 'site.settings', entityType: 'site_settings', entityId: null }, async (tx) => {
		const [current] = await tx.select().from(siteSettings).where(eq(siteSettings.id, true)).for('update')
		const { vatRate, ...fields } = input
		const values: Partial<typeof siteSettings.$inferInsert> = { ...fields, vatRateBasisPoints: vatRate }
		if (files.logo) values.logoUploadId = (await savePreparedUpload(tx, files.logo, actorId)).id
		else if (files.removeLogo) values.logoUploadId = null
		if (files.favicon) values.faviconUploadId = (await savePreparedUpload(tx, files.favicon, actorId)).id
		else if (files.removeFavicon) values.faviconUploadId = null
		await tx
			.insert(siteSettings)
			.values({ id: true, appname: input.appname, siteEmail: input.siteEmail, ...values })
			.onConflictDoUpdate({ target: siteSettings.id, set: { ...values, updatedAt: new Date() } })
		const { updatedAt: _u, id: _i, ...before } = current ?? ({} as Record<string, unknown>)
		await forgetSiteData(tx)
		return { before: current ? before : null, after: values, result: undefined }
	})
}
