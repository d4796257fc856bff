import { createContext, useContext } from 'react'
import { type Language } from '~/i18n/config'
import { type Api } from './api'
import { type Translate } from './i18n'

export type WidgetContext = { api: Api; language: Language; t: Translate }

const Context = createContext<WidgetContext | null>(null)
export const WidgetProvider = Context.Provider

export function useWidget(): WidgetContext {
	const value = useContext(Context)
	if (!value) throw new Error('widget rendered outside its provider')
	return value
}
