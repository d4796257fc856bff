import { useTranslation } from '~/i18n/translation'
import { addressFor, type SiteData } from '~/domain/site/site'
import { type Language } from '~/i18n/config'
import { SocialIcon, type SocialNetwork } from './social-icon'

/**
 * The side address block of spec §2: site name, the address of the reader's language, e-mail,
 * phone with country code, social links.
 */
export function SiteAddress({
	site,
	language,
	className,
	heading,
}: {
	site: SiteData
	language: Language
	className?: string
	/** A heading above the block (the footer's "Contact"). */
	heading?: string
}) {
	const { t } = useTranslation()
	const address = addressFor(site, language)
	const phone = [site.countryCode, site.sitePhoneNumber].filter(Boolean).join(' ')
	const socials = (
		[
			['facebook', site.facebookLink],
			['twitter', site.twitterLink],
			['instagram', site.instagramLink],
			['linkedin', site.linkedinLink],
		] as Array<[SocialNetwork, string]>
	).filter(([, href]) => href)
	return (
		<address className={['site-address', className].filter(Boolean).join(' ')}>
			{heading ? <h2>{heading}</h2> : null}
			<p className="site-address__name">{site.appname}</p>
			{address ? <p>{address}</p> : null}
			{site.siteEmail ? (
				<p>
					<span className="visually-hidden">{t('footer.email')}: </span>
					<a href={`mailto:${site.siteEmail}`}>{site.siteEmail}</a>
				</p>
			) : null}
			{phone ? (
				<p>
					<span className="visually-hidden">{t('footer.phone')}: </span>
					<a href={`tel:${phone.replace(/\s+/g, '')}`}>{phone}</a>
				</p>
			) : null}
			{socials.length ? (
				<ul className="social-links" aria-label={t('footer.follow')}>
					{socials.map(([network, href]) => (
						<li key={network}>
							<a href={href} rel="noopener noreferrer" target="_blank" aria-label={t(`social.${network}`)}>
								<SocialIcon network={network} />
							</a>
						</li>
					))}
				</ul>
			) : null}
		</address>
	)
}
