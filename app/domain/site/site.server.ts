import { eq } from 'drizzle-orm'
import { siteSettings } from '~/db/schema'
import { forgetCaches } from '~/caching/cache-bus.server'
import { valueCache } from '~/caching/value-cache.server'
import { db, type DbOrTx } from '~/db/db.server'
import { uploadUrl } from '~/uploads/upload-url'
import { imageSourcesFor } from '~/uploads/access.server'
import { type SiteData } from './site'

export type { SiteData }

const FALLBACK: SiteData = {
	appname: 'Autohub',
	logo: null,
	logoImage: null,
	favicon: null,
	siteAddress: '',
	siteAddressEstonian: '',
	siteAddressRussian: '',
	siteEmail: '',
	countryCode: '',
	sitePhoneNumber: '',
	facebookLink: '',
	twitterLink: '',
	instagramLink: '',
	linkedinLink: '',
}

// Read on every page: kept in memory briefly, and dropped in every process when an administrator saves.
const settings = valueCache<SiteData>('site-settings', { ttlMs: 30_000 })

/**
 * `database` is the caller's transaction when there is one (an e-mail queued inside a move): on the
 * embedded database a second connection would wait for that transaction to end. What a
 * transaction reads is not cached: it may yet roll back.
 */
export async function getSiteData(database: DbOrTx = db): Promise<SiteData> {
	return database === db ? settings.get('site', () => loadSiteData(db)) : loadSiteData(database)
}

async function loadSiteData(database: DbOrTx): Promise<SiteData> {
	const [row] = await database.select().from(siteSettings).where(eq(siteSettings.id, true))
	const logoImage = row?.logoUploadId ? ((await imageSourcesFor([row.logoUploadId], database)).get(row.logoUploadId) ?? null) : null
	const data: SiteData = row
		? {
				appname: row.appname,
				logo: row.logoUploadId ? uploadUrl(row.logoUploadId) : null,
				logoImage,
				favicon: row.faviconUploadId ? uploadUrl(row.faviconUploadId) : null,
				siteAddress: row.siteAddress,
				siteAddressEstonian: row.siteAddressEstonian,
				siteAddressRussian: row.siteAddressRussian,
				siteEmail: row.siteEmail,
				countryCode: row.countryCode,
				sitePhoneNumber: row.sitePhoneNumber,
				facebookLink: row.facebookLink,
				twitterLink: row.twitterLink,
				instagramLink: row.instagramLink,
				linkedinLink: row.linkedinLink,
			}
		: FALLBACK
	return data
}

/** Drops the settings in every process: inside the saving transaction `tx`, once it commits. */
export function forgetSiteData(tx?: DbOrTx) {
	return forgetCaches(tx, 'site-settings')
}
