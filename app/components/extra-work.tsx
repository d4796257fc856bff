import { Form } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { type ExtraWorkItem } from '~/domain/service-flow/extra-work'
import { useLanguage } from '~/i18n/use-language'
import { formatDate, formatMoney } from '~/utils/format'
import { FormSecurity } from './forms'
import { OfferTerms } from './offer-terms'
import { PhotoStrip } from './photo-strip'

/**
 * The requests for extra work on a job (issue 19), oldest first: why, what it is made of, its
 * photos, its state for the one reading ("waiting for your answer" to the customer), and what the
 * page lets that reader do with it (`actions`: approve and decline, or withdraw).
 */
export function ExtraWorkList({
	items,
	viewer,
	actions,
}: {
	items: ExtraWorkItem[]
	viewer: 'customer' | 'workshop'
	/** What the reader may do with one item; `headingId` names it for its buttons (aria-describedby). */
	actions?: (item: ExtraWorkItem, headingId: string) => React.ReactNode
}) {
	const { t } = useTranslation('common')
	const language = useLanguage()
	if (!items.length) return <p className="item__meta">{t('extraWork.none')}</p>
	return (
		<ol className="extra-work">
			{items.map((item, index) => (
				<li key={item.id} className={`extra-work__item extra-work__item--${item.status}`} aria-labelledby={`extra-work-${index}`}>
					<div className="extra-work__head">
						<h3 id={`extra-work-${index}`} className="item__title">
							{t('extraWork.item', { number: index + 1, price: formatMoney(item.priceCents, language) })}
						</h3>
						<span className={`badge badge--extra-${item.status}`}>{t(`extraWork.status.${viewer}.${item.status}`)}</span>
					</div>
					<p className="item__meta">
						{t('extraWork.askedOn', {
							date: formatDate(item.createdAt, language),
						})}
						{item.answeredAt
							? ` · ${t('extraWork.answeredOn', {
									date: formatDate(item.answeredAt, language),
							  })}`
							: null}
					</p>
					<dl className="facts">
						<div className="facts__row facts__row--wide">
							<dt>{t('extraWork.reason')}</dt>
							<dd className="prose-text">{item.reason}</dd>
						</div>
					</dl>
					<OfferTerms offer={item} />
					<PhotoStrip images={item.images} label={t('extraWork.photos')} altFor={(number) => t('extraWork.photoAlt', { number: number + 1 })} />
					{actions?.(item, `extra-work-${index}`)}
				</li>
			))}
		</ol>
	)
}

/** The customer's answer to one request for extra work: two buttons of one form. */
export function ExtraWorkAnswerForm({ item, headingId }: { item: ExtraWorkItem; headingId: string }) {
	const { t } = useTranslation('customer')
	const language = useLanguage()
	return (
		<Form method="post" className="extra-work__answer">
			<FormSecurity />
			<input type="hidden" name="extraWork" value={item.id} />
			<button type="submit" name="intent" value="approve" className="button button--accent" aria-describedby={headingId}>
				{t('extraWork.approve')} ({formatMoney(item.priceCents, language)})
			</button>
			<button type="submit" name="intent" value="decline" className="button button--ghost" aria-describedby={headingId}>
				{t('extraWork.decline')}
			</button>
		</Form>
	)
}
