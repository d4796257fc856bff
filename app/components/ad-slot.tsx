import { useTranslation } from '~/i18n/translation'
import { type Ad, type AdPlacement } from '~/domain/site/ads'
import { ResponsiveImage } from './responsive-image'

/**
 * A header or footer ad area (spec §2): image ads with their optional link, HTML ads as the
 * server sanitized them. Renders nothing when the area has no ads. Used by the public frame and
 * the signed-in shell with the ads from `loadAdSlots(language)` (app/domain/site/ads.server.ts), on
 * the pages whose routes allow ads (app/utils/ad-places.ts).
 */
export function AdSlot({ ads, placement }: { ads: Ad[] | undefined; placement: AdPlacement }) {
	const { t } = useTranslation('public')
	if (!ads?.length) return null
	const area = placement === 'Header' ? 'header' : 'footer'
	return (
		<aside className={`ad-slot ad-slot--${area}`} aria-label={t(`ads.${area}Label`)}>
			<div className="container ad-slot__inner">
				<p className="ad-slot__badge" aria-hidden="true">
					{t('ads.badge')}
				</p>
				{ads.map((ad) => (
					<div key={ad.id} className={`ad ad--${ad.kind}`}>
						{ad.kind === 'image' && ad.image ? <ImageAd ad={ad} /> : null}
						{ad.kind === 'html' && ad.html ? (
							// Sanitized on the server (app/utils/sanitize.server.ts); the CSP blocks anything that slips through.
							<div className="ad__html" dangerouslySetInnerHTML={{ __html: ad.html }} />
						) : null}
					</div>
				))}
			</div>
		</aside>
	)
}

function ImageAd({ ad }: { ad: Ad }) {
	const { t } = useTranslation('public')
	// As wide as the page up to 970 px (.ad__image), at the foot or the head of the page.
	const image = ad.imageSource ? (
		<ResponsiveImage image={ad.imageSource} alt={t('ads.imageAlt')} sizes="(min-width: 1010px) 970px, calc(100vw - 2.5rem)" width={Math.min(970, ad.imageSource.width)} className="ad__image" />
	) : (
		<img src={ad.image!} alt={t('ads.imageAlt')} className="ad__image" loading="lazy" decoding="async" />
	)
	if (!ad.link) return image
	return ad.external ? (
		<a href={ad.link} target="_blank" rel="noopener noreferrer sponsored" className="ad__link">
			{image}
		</a>
	) : (
		<a href={ad.link} className="ad__link">
			{image}
		</a>
	)
}
