import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { ErrorList, type ListOfErrors } from './forms'

/**
 * A 1–5 star rating as radio buttons: keyboard arrows move between stars, screen readers hear
 * "4 stars", and it works without JavaScript. The stars are drawn by CSS (app.css, .rating-input).
 */
export function RatingInput({ name, legend, defaultValue, errors }: { name: string; legend: string; defaultValue?: string; errors?: ListOfErrors }) {
	const { t } = useTranslation('customer')
	const id = useId()
	const hasErrors = Boolean(errors?.some(Boolean))
	return (
		<fieldset className="fieldset rating-input" aria-describedby={hasErrors ? `${id}-error` : undefined}>
			<legend className="field__label field__label--required">{legend}</legend>
			<div className="rating-input__stars">
				{[5, 4, 3, 2, 1].map((value) => (
					<span key={value} className="rating-input__star">
						<input type="radio" id={`${id}-${value}`} name={name} value={value} defaultChecked={defaultValue === String(value)} />
						<label htmlFor={`${id}-${value}`} title={t('review.stars', { count: value })}>
							<span className="visually-hidden">{t('review.stars', { count: value })}</span>
						</label>
					</span>
				))}
			</div>
			<ErrorList id={`${id}-error`} errors={errors} />
		</fieldset>
	)
}
