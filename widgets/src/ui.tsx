import { type RefObject } from 'react'
import { roundToHalf } from '~/domain/directory/workshops'
import { formatRating } from '~/utils/format'
import { ApiError } from './api'
import { useWidget } from './context'

// The portal's star (app/components/stars.tsx): 24×24, and its left half for half stars.
const STAR = 'M12 2l3.09 6.26L22 9.27l-5 4.87 1.18 6.88L12 17.77l-6.18 3.25L7 14.14 2 9.27l6.91-1.01z'
const LEFT_HALF = 'M12 2L8.91 8.26 2 9.27l5 4.87-1.18 6.88L12 17.77z'

/** An average rating as five stars rounded to the nearest half; read aloud as "4.5 out of 5". */
export function Stars({ rating }: { rating: number }) {
	const { t, language } = useWidget()
	const shown = roundToHalf(rating)
	return (
		<span className="stars" role="img" aria-label={t('public:stars.label', { rating: formatRating(rating, language) })}>
			{[0, 1, 2, 3, 4].map((index) => {
				const fill = shown - index >= 1 ? 'full' : shown - index === 0.5 ? 'half' : 'empty'
				return (
					<svg key={index} className={`star star--${fill}`} data-fill={fill} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
						<path className="star__back" d={STAR} />
						{fill === 'empty' ? null : <path className="star__front" d={fill === 'full' ? STAR : LEFT_HALF} />}
					</svg>
				)
			})}
		</span>
	)
}

export function Loading() {
	const { t } = useWidget()
	return (
		<p className="state state--loading" role="status">
			<span className="spinner" aria-hidden="true" />
			{t('widgets:loading')}
		</p>
	)
}

/** A failed call: the server's own message when it sent one, and a way to try again. */
export function Failure({ error, retry }: { error: unknown; retry?: () => void }) {
	const { t } = useWidget()
	const message = error instanceof ApiError && error.status === 404 ? t('widgets:notFound') : t('widgets:error')
	return (
		<div className="state state--error" role="alert">
			<p>{message}</p>
			{retry ? (
				<button type="button" className="button" onClick={retry}>
					{t('widgets:retry')}
				</button>
			) : null}
		</div>
	)
}

export function Empty({ hint }: { hint?: string }) {
	const { t } = useWidget()
	return (
		<div className="state state--empty">
			<p className="state__title">{t('public:list.empty')}</p>
			{hint ? <p>{hint}</p> : null}
		</div>
	)
}

/** Previous / next with "Page 2 of 5" between: buttons, since the widget keeps its state itself. */
export function Pager({ page, totalPages, onPage, label }: { page: number; totalPages: number; onPage: (page: number) => void; label: string }) {
	const { t } = useWidget()
	if (totalPages <= 1) return null
	return (
		<nav className="pager" aria-label={label}>
			<button type="button" className="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
				{t('public:pagination.previous')}
			</button>
			<span className="pager__status" aria-live="polite">
				{t('widgets:pageOf', { page, total: totalPages })}
			</span>
			<button type="button" className="button" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
				{t('public:pagination.next')}
			</button>
		</nav>
	)
}

/** "Based on 5 reviews" / "Based on 1 review", the portal's words. */
export function reviewCountText(t: ReturnType<typeof useWidget>['t'], count: number) {
	return count === 1 ? t('public:rating.basedOnOne') : count ? t('public:rating.basedOn', { total: count }) : t('public:rating.noReviews')
}

/** The bot trap of a widget's form: hidden from people and assistive technology, so only a bot fills it in. */
export function BotTrap({ id, trap }: { id: string; trap: RefObject<HTMLInputElement> }) {
	const { t } = useWidget()
	return (
		<div className="trap" aria-hidden="true">
			<label htmlFor={`${id}-trap`}>{t('common:forms.honeypot')}</label>
			<input ref={trap} id={`${id}-trap`} name="name__confirm" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
		</div>
	)
}

/** A widget form's send button, "Sending…" while the post is on its way. */
export function SendButton({ sending, label }: { sending: boolean; label: string }) {
	const { t } = useWidget()
	return (
		<div className="actions">
			<button type="submit" className="button button--primary" disabled={sending} aria-disabled={sending || undefined}>
				{sending ? t('widgets:sending') : label}
			</button>
		</div>
	)
}
