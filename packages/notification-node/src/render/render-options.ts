/** A call to action the renderers append: a button (HTML, chat), a `label: url` line (text). */
export interface RenderAction {
  label: string;
  url: string;
}

export interface RenderOptions {
  /**
   * Most characters of the whole output, the action included. Longer bodies are cut on a word
   * or block boundary and end with an ellipsis; the action is always kept.
   */
  maxLength?: number;
  action?: RenderAction;
}
