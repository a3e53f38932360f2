window.CHBENCH_PAGE = {"question":"capabilities","charts":[]};
