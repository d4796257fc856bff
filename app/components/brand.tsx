import { Link } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { type SiteData } from '~/domain/site/site'
import { ResponsiveImage } from './responsive-image'

/** The site's logo and name, linking home (spec §2: "/ from the logo"). */
export function Brand({ site, size = 40, className }: { site: SiteData; size?: number; className?: string }) {
	const { t } = useTranslation()
	return (
		<Link to="/" className={['brand', site.logoImage || site.logo ? 'brand--with-logo' : null, className].filter(Boolean).join(' ')} aria-label={t('nav.homeOf', { site: site.appname })}>
			{site.logoImage ? (
				<ResponsiveImage image={site.logoImage} alt="" sizes={`${size}px`} width={size} loading="eager" className="brand__logo" />
			) : site.logo ? (
				<img src={site.logo} alt="" width={size} height={size} className="brand__logo" />
			) : null}
			<span className="brand__name">{site.appname}</span>
		</Link>
	)
}
