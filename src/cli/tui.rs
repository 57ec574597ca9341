pub fn run(_: super::Lang, _: &super::StepArgs) -> Result<super::Exit, super::Exit> {
    Err(super::Exit::Static)
}
