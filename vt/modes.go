package vt

// DEC private modes Screen acts on.
const (
	modeAppCursor   = 1
	modeOrigin      = 6
	modeAutowrap    = 7
	modeShowCursor  = 25
	modeAltScreen   = 47
	modeAltClear    = 1047
	modeSaveCursor  = 1048
	modeAltSaveClr  = 1049
	modeSyncOutput  = 2026
	ansiModeInsert  = 4
	ansiModeNewline = 20
)

// screenTrackedModes are DEC modes that change nothing on screen (mouse,
// focus, bracketed paste, cursor blink...) but are remembered so DECRQM
// can report them as an app set them.
var screenTrackedModes = map[int]bool{
	3: true, 5: true, 12: true, 1000: true, 1001: true, 1002: true, 1003: true,
	1004: true, 1005: true, 1006: true, 1007: true, 1015: true, 1016: true,
	2004: true,
}

// setDECModes is CSI ? Pm h (set) and CSI ? Pm l (reset).
func (s *Screen) setDECModes(set bool) {
	for i := range max(s.nparams(), 1) {
		switch m := s.param(i, 0); m {
		case modeAppCursor:
			s.appCursor = set
		case modeOrigin:
			s.cur.origin = set
			s.cursorPosition(0, 0)
		case modeAutowrap:
			s.autowrap = set
			s.cur.wrapPending = s.cur.wrapPending && set
		case modeShowCursor:
			s.cursorVisible = set
		case modeAltScreen, modeAltClear:
			s.switchScreen(set, m == modeAltClear && !set)
		case modeSaveCursor:
			if set {
				s.saveCursor()
			} else {
				s.restoreCursor()
			}
		case modeAltSaveClr:
			if set && !s.altActive {
				s.saveCursor()
				s.switchScreen(true, true)
			} else if !set && s.altActive {
				s.switchScreen(false, false)
				s.restoreCursor()
			}
		case modeSyncOutput:
			s.sync = set
		default:
			if screenTrackedModes[m] {
				s.decModes[m] = set
			}
		}
	}
}

// switchScreen enters (alt) or leaves the alternate screen, clearing the
// alternate buffer first when clear is set. The main screen is kept
// untouched meanwhile, so leaving shows it again as it was.
func (s *Screen) switchScreen(alt, clear bool) {
	if clear {
		for _, r := range s.alt.rows {
			r.reset(screenCell{})
		}
	}
	if alt == s.altActive {
		return
	}
	s.altActive = alt
	s.grid = s.main
	if alt {
		s.grid = s.alt
	}
	s.dirty = true
}

// setANSIModes is CSI Pm h / CSI Pm l: insert (IRM) and newline (LNM).
func (s *Screen) setANSIModes(set bool) {
	for i := range s.nparams() {
		switch s.param(i, 0) {
		case ansiModeInsert:
			s.insert = set
		case ansiModeNewline:
			s.newline = set
		}
	}
}

// replyMode answers DECRQM: CSI [?] Ps ; Pm $ y with Pm 1 set, 2 reset,
// 4 permanently reset, 0 not recognised.
func (s *Screen) replyMode(private bool, m int) {
	state := 0
	on := func(b bool) int {
		if b {
			return 1
		}
		return 2
	}
	if private {
		switch m {
		case modeAppCursor:
			state = on(s.appCursor)
		case modeOrigin:
			state = on(s.cur.origin)
		case modeAutowrap:
			state = on(s.autowrap)
		case modeShowCursor:
			state = on(s.cursorVisible)
		case modeAltScreen, modeAltClear, modeAltSaveClr:
			state = on(s.altActive)
		case modeSyncOutput:
			state = on(s.sync)
		default:
			if screenTrackedModes[m] {
				state = on(s.decModes[m])
			}
		}
	} else {
		switch m {
		case ansiModeInsert:
			state = on(s.insert)
		case ansiModeNewline:
			state = on(s.newline)
		case 2, 12: // keyboard action, send/receive: never changed
			state = 4
		}
	}
	b := append(s.replyBuf[:0], "\x1b["...)
	if private {
		b = append(b, '?')
	}
	b = appendInts(b, ';', m, state)
	s.replyBuf = append(b, "$y"...)
	s.flushReply()
}

// softReset is DECSTR: modes and pen back to defaults, screen kept.
func (s *Screen) softReset() {
	row, col := s.cur.row, s.cur.col
	s.resetModes()
	s.cur.row, s.cur.col = row, col
	s.main.hasSaved, s.alt.hasSaved = false, false
}

// fullReset is RIS (ESC c): back to the main screen, everything cleared
// (the main screen's lines retired first) and reset. The title stays, as
// in xterm.
func (s *Screen) fullReset() {
	s.switchScreen(false, true)
	s.retireScreen()
	for _, r := range s.main.rows {
		r.reset(screenCell{})
	}
	s.resetModes()
	s.cur = screenCursor{}
	s.main.hasSaved, s.alt.hasSaved = false, false
	s.resetTabs(0)
	s.lastRune = 0
	s.dirty = true
}

// resetTabs sets the default stops, every 8 columns, from column from on.
func (s *Screen) resetTabs(from int) {
	for i := from; i < len(s.tabs); i++ {
		s.tabs[i] = i%8 == 0 && i > 0
	}
}

// nextTab is the column n tab stops right of col, or the last column.
func (s *Screen) nextTab(col, n int) int {
	for ; n > 0 && col < s.cols-1; n-- {
		col++
		for col < s.cols-1 && !s.tabs[col] {
			col++
		}
	}
	return col
}

// prevTab is the column n tab stops left of col, or column 0.
func (s *Screen) prevTab(col, n int) int {
	for ; n > 0 && col > 0; n-- {
		col--
		for col > 0 && !s.tabs[col] {
			col--
		}
	}
	return col
}

// clearTabs is TBC: 0 clears the stop at the cursor, 3 clears them all.
func (s *Screen) clearTabs(mode int) {
	switch mode {
	case 0:
		s.tabs[s.cur.col] = false
	case 3:
		clear(s.tabs)
	}
}
