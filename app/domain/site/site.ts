import { type Language } from '~/i18n/config'
import { type ImageSource } from '~/uploads/upload-url'

/** What every page needs from site settings (spec §3 "Site data"), with upload ids made into URLs. */
export type SiteData = {
	appname: string
	logo: string | null
	/** The logo at the size it is shown (issue 18). */
	logoImage: ImageSource | null
	favicon: string | null
	siteAddress: string
	siteAddressEstonian: string
	siteAddressRussian: string
	siteEmail: string
	countryCode: string
	sitePhoneNumber: string
	facebookLink: string
	twitterLink: string
	instagramLink: string
	linkedinLink: string
}

/** The side address block shows the address of the reader's language (spec §2). */
export function addressFor(site: SiteData, language: Language) {
	if (language === 'et') return site.siteAddressEstonian || site.siteAddress
	if (language === 'ru') return site.siteAddressRussian || site.siteAddress
	return site.siteAddress
}
