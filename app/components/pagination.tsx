import { Link } from 'react-router'
import { useTranslation } from '~/i18n/translation'

/** The pages to offer: the first, the last, and two either side of the current one, with gaps between. */
export function pageWindow(page: number, totalPages: number): Array<number | 'gap'> {
	const pages = new Set([1, totalPages, page - 2, page - 1, page, page + 1, page + 2].filter((p) => p >= 1 && p <= totalPages))
	const sorted = [...pages].sort((a, b) => a - b)
	const result: Array<number | 'gap'> = []
	for (const [index, p] of sorted.entries()) {
		if (index > 0 && p - sorted[index - 1]! > 1) result.push('gap')
		result.push(p)
	}
	return result
}

/** Page links that work without JavaScript; `href(page)` keeps the rest of the query. */
export function Pagination({
	page,
	totalPages,
	href,
	label,
	preventScrollReset,
}: {
	page: number
	totalPages: number
	href: (page: number) => string
	label: string
	preventScrollReset?: boolean
}) {
	const { t } = useTranslation('public')
	if (totalPages <= 1) return null
	return (
		<nav className="pagination" aria-label={label}>
			<ul>
				<li>
					{page > 1 ? (
						<Link to={href(page - 1)} rel="prev" className="pagination__step" preventScrollReset={preventScrollReset}>
							{t('pagination.previous')}
						</Link>
					) : (
						<span className="pagination__step pagination__step--disabled">{t('pagination.previous')}</span>
					)}
				</li>
				{pageWindow(page, totalPages).map((p, index) =>
					p === 'gap' ? (
						<li key={`gap-${index}`} className="pagination__gap" aria-hidden="true">
							{'…'}
						</li>
					) : (
						<li key={p}>
							<Link
								to={href(p)}
								aria-current={p === page ? 'page' : undefined}
								aria-label={t('pagination.page', { page: p })}
								className="pagination__page"
								preventScrollReset={preventScrollReset}
							>
								{p}
							</Link>
						</li>
					),
				)}
				<li>
					{page < totalPages ? (
						<Link to={href(page + 1)} rel="next" className="pagination__step" preventScrollReset={preventScrollReset}>
							{t('pagination.next')}
						</Link>
					) : (
						<span className="pagination__step pagination__step--disabled">{t('pagination.next')}</span>
					)}
				</li>
			</ul>
		</nav>
	)
}
