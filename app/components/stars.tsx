import { useRouteLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { roundToHalf } from '~/domain/directory/workshops'
import { fallbackLanguage } from '~/i18n/config'
import { type RootLoaderData } from '~/root-data'
import { formatRating } from '~/utils/format'

// A five-pointed star in a 24×24 box, and its left half (the star is symmetric about x = 12).
const STAR = 'M12 2l3.09 6.26L22 9.27l-5 4.87 1.18 6.88L12 17.77l-6.18 3.25L7 14.14 2 9.27l6.91-1.01z'
const LEFT_HALF = 'M12 2L8.91 8.26 2 9.27l5 4.87-1.18 6.88L12 17.77z'

/**
 * An average rating as five stars, half stars allowed (spec §2), drawn with classes only (the CSP
 * forbids inline styles). Assistive technology reads "4.5 out of 5".
 */
export function Stars({ rating, size = 'medium' }: { rating: number; size?: 'small' | 'medium' | 'large' }) {
	const { t } = useTranslation('public')
	const language = useRouteLoaderData<RootLoaderData>('root')?.language ?? fallbackLanguage
	const shown = roundToHalf(rating)
	return (
		<span className={`stars stars--${size}`} role="img" aria-label={t('stars.label', { rating: formatRating(rating, language) })}>
			{[0, 1, 2, 3, 4].map((index) => {
				const fill = shown - index >= 1 ? 'full' : shown - index === 0.5 ? 'half' : 'empty'
				return (
					<svg key={index} className={`star star--${fill}`} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
						<path className="star__back" d={STAR} />
						{fill === 'empty' ? null : <path className="star__front" d={fill === 'full' ? STAR : LEFT_HALF} />}
					</svg>
				)
			})}
		</span>
	)
}
