import { useId } from 'react'
import { useTranslation } from '~/i18n/translation'
import { ratingSteps } from '~/domain/service-flow/reviews'
import { useLanguage } from '~/i18n/use-language'
import { formatNumber } from '~/utils/format'
import { ErrorList, type ListOfErrors } from './forms'

/**
 * A rating of half a star to five stars as ten radio buttons, each the left or right half of a
 * star: arrow keys move by half a star, screen readers hear "4.5 stars", and it works without
 * JavaScript. The halves are drawn by CSS (app.css, .rating-input): a chosen one lights those
 * before it.
 */
export function RatingInput({ name, legend, defaultValue, errors }: { name: string; legend: string; defaultValue?: string; errors?: ListOfErrors }) {
	const { t } = useTranslation('customer')
	const language = useLanguage()
	const id = useId()
	const hasErrors = Boolean(errors?.some(Boolean))
	return (
		<fieldset className="fieldset rating-input" aria-describedby={hasErrors ? `${id}-error` : undefined}>
			<legend className="field__label field__label--required">{legend}</legend>
			<div className="rating-input__stars">
				{ratingSteps.map((value) => {
					const label = t('review.stars', { count: value, rating: formatNumber(value, language) })
					return (
						<span key={value} className={`rating-input__star rating-input__star--${Number.isInteger(value) ? 'right' : 'left'}`}>
							<input type="radio" id={`${id}-${value}`} name={name} value={value} defaultChecked={defaultValue !== undefined && Number(defaultValue) === value} />
							<label htmlFor={`${id}-${value}`} title={label}>
								<span className="visually-hidden">{label}</span>
							</label>
						</span>
					)
				})}
			</div>
			<ErrorList id={`${id}-error`} errors={errors} />
		</fieldset>
	)
}
