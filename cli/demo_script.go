package cli

func (a *app) demo(keep bool) error { return nil }
