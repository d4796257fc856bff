import { eq } from 'drizzle-orm'
import { siteSettings } from '~/db/schema'
import { db } from '~/utils/db.server'
import { uploadUrl } from '~/utils/upload-url'
import { type SiteData } from './site'

export type { SiteData }

const FALLBACK: SiteData = {
	appname: 'Autohub',
	logo: null,
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

// Read on every page: kept in memory briefly, and dropped at once when an administrator saves.
const TTL_MS = 30_000
let cache: { data: SiteData; until: number } | undefined

export async function getSiteData(): Promise<SiteData> {
	if (cache && cache.until > Date.now()) return cache.data
	const [row] = await db.select().from(siteSettings).where(eq(siteSettings.id, true))
	const data: SiteData = row
		? {
				appname: row.appname,
				logo: row.logoUploadId ? uploadUrl(row.logoUploadId) : null,
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
	cache = { data, until: Date.now() + TTL_MS }
	return data
}

export function forgetSiteData() {
	cache = undefined
}
